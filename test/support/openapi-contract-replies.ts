/**
 * The contract test's scenarios for the loop from a match to a reply (docs/api/replies.md) and the
 * publishing rails (docs/api/rails.md): replies to a comment or a match, editing a draft, the inbox,
 * and each rail's refusal. A rail counts an account's own publications, so each scenario that means
 * one publishes as an account of its own, from nothing (the rich account's comments are kept out of
 * the rails' way: see `comment` in openapi-contract-calls.ts).
 */
import { NO_ID, generateBody, post, type Checked, type World } from './openapi-contract-calls.ts';
import { bodyRefusals, byId, ok, paged, scenario, whileUpstream, type Scenario } from './openapi-contract-scenarios.ts';

/** A connected account with credits of its own, its key, and a number for texts no other call sends. */
async function publisher(w: World) {
  const { token, accountId } = await w.main.connectedAccount(1_000);
  return { token, accountId, n: w.serial() };
}

/** Sends as `token`, and fails the scenario at once (with the answer) when a step meant to succeed does not. */
async function step(w: World, token: string, method: string, target: string, body?: unknown): Promise<Checked> {
  const answer = await w.send('main', { method, target, body, token });
  if (answer.status >= 300) throw new Error(`${method} ${target} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return answer;
}

const idIn = (answer: Checked) => (JSON.parse(answer.body) as { id: string }).id;
const dismiss = (id: string) => ({ method: 'PATCH', target: `/api/v1/matches/${id}`, body: { status: 'dismissed' } });
const generation = (id: string) => `/api/v1/generations/${id}`;

/** A match of a fresh account answered on Reddit: stored as the poller stores it, drafted from, and published. */
async function publishedMatch(w: World) {
  const who = await publisher(w);
  const monitor = await step(w, who.token, 'POST', '/api/v1/monitors', { name: `Answered ${who.n}`, subreddits: ['r/node'], keywords: ['contract'] });
  const [matchId] = await w.storeMatches(idIn(monitor), who.accountId, 1);
  const draft = await step(w, who.token, 'POST', '/api/v1/generate', { type: 'reply', reply_to: matchId });
  await step(w, who.token, 'POST', '/api/v1/publish', { generation_id: idIn(draft) });
  return { ...who, matchId: matchId! };
}

/** A self post in a subreddit the fake Reddit has, with words no other call sends: what the pace rails count. */
function selfPost(w: World, subreddit: string) {
  w.main.reddit.subreddits.set(subreddit, 'public');
  const n = w.serial();
  return { type: 'post', subreddit: `r/${subreddit}`, title: `Pace ${n}`, body: `Paced words ${n}.` };
}

export const REPLY_SCENARIOS: Scenario[] = [
  scenario('createGeneration', 404, 'a reply to a comment Reddit does not have', {
    code: 'generate.comment_not_found',
    call: () => post('/api/v1/generate', { type: 'reply', reply_to: 't1_nosuch' }),
  }),
  scenario('createGeneration', 404, 'a reply to a match the account does not have', {
    code: 'generate.match_not_found',
    call: () => post('/api/v1/generate', { type: 'reply', reply_to: `mat_${NO_ID}` }),
  }),
  scenario('createGeneration', 422, 'a reply that names nothing to answer', {
    code: 'generate.reply_to_invalid',
    call: () => post('/api/v1/generate', { type: 'reply', instructions: 'A short tip' }),
  }),

  ok('updateGeneration'),
  ...bodyRefusals('updateGeneration', 'PATCH', (w) => generation(w.ids.generation), { body: '' }),
  scenario('updateGeneration', 404, 'a draft that does not exist', {
    call: () => ({ method: 'PATCH', target: generation(`gen_${NO_ID}`), body: { body: 'x' } }),
  }),
  scenario('updateGeneration', 409, 'a draft the model failed to write', {
    code: 'generate.not_editable',
    run: async (w) => {
      const failed = await whileUpstream(w, (on) => on && w.main.llm.failNext(500), post('/api/v1/generate', generateBody));
      const { generation_id: id } = JSON.parse(failed.body) as { generation_id: string };
      return w.send('main', { method: 'PATCH', target: generation(id), body: { body: 'Too late to edit.' } });
    },
  }),

  ok('listInbox'),
  ok('getStreamCoverage'),
  scenario('getStreamCoverage', 422, 'hours=0', { call: () => ({ method: 'GET', target: '/api/v1/stream/coverage?hours=0' }) }),
  ...paged('listInbox', '/api/v1/inbox'),
  ok('getMatch'),
  ...byId('getMatch', '/api/v1/matches', 'mat'),
  ok('updateMatch'),
  ...bodyRefusals('updateMatch', 'PATCH', (w) => `/api/v1/matches/${w.ids.match}`, { status: 'published' }),
  scenario('updateMatch', 404, 'a match that does not exist', { call: () => dismiss(`mat_${NO_ID}`) }),
  scenario('updateMatch', 409, 'dismissing a match answered on Reddit', {
    code: 'matches.published',
    run: async (w) => {
      const { token, matchId } = await publishedMatch(w);
      return w.send('main', { ...dismiss(matchId), token });
    },
  }),

  scenario('createPublication', 409, 'a second reply in a thread (a rail)', {
    code: 'publish.second_reply',
    run: async (w) => {
      const { token, n } = await publisher(w);
      const parent = `t3_th${n}`;
      await step(w, token, 'POST', '/api/v1/publish', { type: 'comment', parent, body: `First reply ${n}.` });
      return w.send('main', { ...post('/api/v1/publish', { type: 'comment', parent, body: `Second reply ${n}.` }), token });
    },
  }),
  scenario('createPublication', 429, 'a second publication in one subreddit within its pace (a rail)', {
    code: 'publish.subreddit_pace',
    run: async (w) => {
      const { token, n } = await publisher(w);
      await step(w, token, 'POST', '/api/v1/publish', selfPost(w, `pace${n}`));
      return w.send('main', { ...post('/api/v1/publish', selfPost(w, `pace${n}`)), token });
    },
  }),
  scenario('createPublication', 429, 'one publication more than the hourly pace allows (a rail)', {
    code: 'publish.hourly_pace',
    run: async (w) => {
      const { token, n } = await publisher(w);
      // The server's default pace, 5 an hour, each in a subreddit of its own so that no other rail counts them.
      for (let i = 0; i < 5; i++) await step(w, token, 'POST', '/api/v1/publish', selfPost(w, `hourly${n}_${i}`));
      return w.send('main', { ...post('/api/v1/publish', selfPost(w, `hourly${n}_5`)), token });
    },
  }),
];
