/**
 * From a match to a reply (docs/api/replies.md): a draft from what a monitor stored (no Reddit read), a
 * reply to a comment published under that comment, drafts on the way in, and the inbox's statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { createMonitor, cycle, pinnedClock } from '../support/monitors.ts';
import { startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';

const HOOK = 'http://127.0.0.1:9/subpilot';
const ENV = { ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true', PRICE_GENERATE: '5', PRICE_PUBLISH: '10', PRICE_MONITOR_MATCH: '1' };

describe.each(engines)('from a match to a published reply, on %s', (engine) => {
  let app: PublishingApp;
  const clock = pinnedClock();
  let serial = 0;
  beforeAll(async () => {
    app = await startPublishingApp(engine, { env: ENV, overrides: () => ({ clock: clock.now }) });
    app.reddit.clock = () => clock.now().getTime();
  });
  afterAll(() => app.close());

  /** A connected account with a monitor on a subreddit of its own, watching from now. */
  async function watching(credits: number, body: Record<string, unknown> = {}) {
    const subreddit = `replies${++serial}`;
    app.reddit.subreddits.set(subreddit, 'public');
    const account = await app.connectedAccount(credits);
    const monitor = await createMonitor(app, account.token, { subreddits: [`r/${subreddit}`], keywords: ['otter'], sources: ['posts', 'comments'], ...body });
    await cycle(app);
    return { account, monitor, subreddit };
  }
  const api = (method: string, path: string, token: string, body?: unknown) => app.api(method, path, { token, body });
  const inbox = async (token: string, query = '') => (await (await api('GET', `/api/v1/inbox?limit=100${query}`, token)).json()).data as Record<string, any>[];
  async function expectExactLedger(account: ConnectedAccount, balance: number) {
    expect(await account.balance()).toBe(balance);
    expect(await ledgerSum(app.services.db, account.accountId)).toBe(balance);
  }
  const infoRequests = () => app.reddit.requests.filter((r) => r.path === '/api/info').length;
  /** A post in `subreddit`, made a second before, that the poller's next cycle finds. */
  async function postFound(subreddit: string, fields: { title: string; selftext?: string }) {
    clock.advance(5);
    const post = app.reddit.addPost({ subreddit, ...fields, created_utc: clock.seconds() - 1 });
    clock.advance(5);
    await cycle(app);
    return post;
  }

  it('a reply to a post a monitor found is drafted from the stored post, without a Reddit read, and published under it', async () => {
    const { account, subreddit } = await watching(100);
    const post = await postFound(subreddit, { title: 'Any otter sanctuaries near Oslo?', selftext: 'Planning a trip in May.' });
    const [match] = await inbox(account.token);
    expect(match).toMatchObject({ reddit_id: `t3_${post.id}`, status: 'new', draft: null, publication: null });

    const reads = infoRequests();
    const drafted = await api('POST', '/api/v1/generate', account.token, { type: 'reply', reply_to: match!.id, instructions: 'Be brief.' });
    expect(drafted.status).toBe(200);
    const draft = await drafted.json();
    expect(draft).toMatchObject({ status: 'completed', reply_to: `t3_${post.id}`, post_id: `t3_${post.id}`, match_id: match!.id, subreddit: `r/${subreddit}` });
    expect(infoRequests()).toBe(reads);
    const prompt = app.llm.requests.at(-1)!.body.messages.at(-1)!.content;
    expect(prompt).toContain('Any otter sanctuaries near Oslo?');
    expect(prompt).toContain('Planning a trip in May.');
    expect((await inbox(account.token))[0]).toMatchObject({ status: 'drafted', draft: { id: draft.id, status: 'completed' } });

    const published = await api('POST', '/api/v1/publish', account.token, { generation_id: draft.id });
    expect(published.status).toBe(200);
    const { id: publicationId, reddit } = await published.json();
    expect(app.reddit.user.comments.at(-1)).toMatchObject({ thing_id: `t3_${post.id}`, text: draft.body, author: account.username });
    expect((await inbox(account.token))[0]).toMatchObject({ status: 'published', publication_id: publicationId, publication: { id: publicationId, status: 'published', permalink: reddit.permalink } });
    // 1 match, 5 the draft, 10 the reply.
    await expectExactLedger(account, 100 - 1 - 5 - 10);
  });

  it('publishing an earlier draft of a match marks the match published, with that publication, whichever way the drafts named it', async () => {
    const { account, subreddit } = await watching(100);
    const post = await postFound(subreddit, { title: 'Otter-proof fences?', selftext: 'Asking for a friend.' });
    const [match] = await inbox(account.token);
    const draftA = await (await api('POST', '/api/v1/generate', account.token, { type: 'reply', reply_to: match!.id })).json();
    const draftB = await (await api('POST', '/api/v1/generate', account.token, { type: 'reply', reply_to: `t3_${post.id}` })).json();
    expect([draftA.match_id, draftB.match_id]).toEqual([match!.id, match!.id]);

    const published = await api('POST', '/api/v1/publish', account.token, { generation_id: draftA.id });
    expect(published.status).toBe(200);
    const publication = await published.json();
    const shown = await (await api('GET', `/api/v1/matches/${match!.id}`, account.token)).json();
    expect(shown).toMatchObject({ status: 'published', publication_id: publication.id });
    expect((await inbox(account.token))[0]).toMatchObject({ status: 'published', draft: { id: draftA.id }, publication: { id: publication.id } });
    // 1 the match, 5 each draft, 10 the reply.
    await expectExactLedger(account, 100 - 1 - 5 - 5 - 10);
  });

  it('a reply to a comment a monitor found is drafted with the comment and its post title, and posted under the comment', async () => {
    const { account, subreddit } = await watching(100);
    clock.advance(5);
    const parent = app.reddit.addPost({ subreddit, title: 'Weekend plans', selftext: '', created_utc: clock.seconds() - 2 });
    const comment = app.reddit.addComment({ subreddit, link_id: parent.id, body: 'I want to see an otter this weekend', author: 'river_fan', created_utc: clock.seconds() - 1 });
    clock.advance(5);
    await cycle(app);
    const match = (await inbox(account.token)).find((m) => m.reddit_id === `t1_${comment.id}`)!;
    expect(match.type).toBe('comment');

    const reads = infoRequests();
    const draft = await (await api('POST', '/api/v1/generate', account.token, { type: 'reply', reply_to: `t1_${comment.id}` })).json();
    expect(draft).toMatchObject({ status: 'completed', reply_to: `t1_${comment.id}`, post_id: `t3_${parent.id}`, match_id: match.id });
    expect(infoRequests()).toBe(reads);
    const prompt = app.llm.requests.at(-1)!.body.messages;
    expect(prompt[0]!.content).toContain('a reply to a Reddit comment');
    // The thread is one line of JSON, data for the model (generate.prompt.ts).
    expect(prompt.at(-1)!.content).toContain('"comment_author":"u/river_fan","comment_body":"I want to see an otter this weekend');
    expect(prompt.at(-1)!.content).toContain('"post_title":"Weekend plans"');

    expect((await api('POST', '/api/v1/publish', account.token, { generation_id: draft.id })).status).toBe(200);
    expect(app.reddit.user.comments.at(-1)).toMatchObject({ thing_id: `t1_${comment.id}`, text: draft.body });
    expect((await inbox(account.token)).find((m) => m.id === match.id)!.status).toBe('published');
    await expectExactLedger(account, 100 - 1 - 5 - 10);
  });

  it('a reply to a comment nobody stored reads the comment, then its post for the title, from Reddit', async () => {
    const account = await app.connectedAccount(20);
    const subreddit = `replies${++serial}`;
    app.reddit.subreddits.set(subreddit, 'public');
    const parent = app.reddit.addPost({ subreddit, title: 'Kayak routes on the Thames', selftext: 'Looking for ideas.' });
    const comment = app.reddit.addComment({ subreddit, link_id: parent.id, body: 'Try Henley to Marlow.' });
    const reads = infoRequests();
    const draft = await (await api('POST', '/api/v1/generate', account.token, { type: 'reply', reply_to: `t1_${comment.id}` })).json();
    expect(draft).toMatchObject({ status: 'completed', reply_to: `t1_${comment.id}`, post_id: `t3_${parent.id}`, match_id: null });
    expect(infoRequests()).toBe(reads + 2);
    expect(app.llm.requests.at(-1)!.body.messages.at(-1)!.content).toContain('"post_title":"Kayak routes on the Thames"');
    await expectExactLedger(account, 15);
  });

  it('a reply to a match of another account, or one that does not exist, is a 404 that charges nothing', async () => {
    const { account: owner, subreddit } = await watching(10);
    await postFound(subreddit, { title: 'otter facts' });
    const [match] = await inbox(owner.token);
    const stranger = await app.connectedAccount(10);
    const response = await api('POST', '/api/v1/generate', stranger.token, { type: 'reply', reply_to: match!.id });
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe('generate.match_not_found');
    await expectExactLedger(stranger, 10);
  });

  it('reply_to and post_id together, or neither, is a 422 naming reply_to that charges nothing', async () => {
    const account = await app.connectedAccount(0);
    for (const body of [{ type: 'reply', reply_to: 't3_abc', post_id: 't3_abc' }, { type: 'reply', instructions: 'hi' }]) {
      const response = await api('POST', '/api/v1/generate', account.token, body);
      expect(response.status).toBe(422);
      const problem = await response.json();
      expect(problem.code).toBe('generate.reply_to_invalid');
      expect(problem.errors[0].path).toBe('/reply_to');
    }
  });

  it('a monitor with draft_replies drafts each delivered match once, charged once, names the draft in its webhook and never publishes', async () => {
    const { account, monitor, subreddit } = await watching(100, { draft_replies: true, draft_instructions: 'Mention our otter guide.', webhook_url: HOOK });
    expect(monitor).toMatchObject({ draft_replies: true, draft_instructions: 'Mention our otter guide.' });
    const published = app.reddit.user.comments.length;
    clock.advance(5);
    app.reddit.addPost({ subreddit, title: 'otter spotting tips?', created_utc: clock.seconds() - 2 });
    app.reddit.addPost({ subreddit, title: 'best otter photos', created_utc: clock.seconds() - 1 });
    clock.advance(5);
    await cycle(app);
    await cycle(app);

    const entries = await inbox(account.token);
    expect(entries.map((m) => [m.status, m.draft?.status])).toEqual([
      ['drafted', 'completed'],
      ['drafted', 'completed'],
    ]);
    expect(app.llm.requests.at(-1)!.body.messages.at(-1)!.content).toContain('Instructions: Mention our otter guide.');
    const rows = await app.database.db.selectFrom('webhook_deliveries').select('payload').where('event_type', '=', 'monitor.matches').execute();
    const sent = rows.map((row) => JSON.parse(row.payload).data).filter((data) => data.monitor_id === monitor.id).flatMap((data) => data.matches);
    expect(sent.map((m: { draft_id: string }) => m.draft_id).sort()).toEqual(entries.map((m) => m.draft.id).sort());
    expect(app.reddit.user.comments.length).toBe(published);
    await expectExactLedger(account, 100 - 2 - 2 * 5);
    // The monitor spent these by itself: its drafts, like its matches, say so rather than where it was created.
    const usage = await (await app.api('GET', '/api/v1/usage', { token: account.token })).json();
    expect(new Set(usage.data.filter((e: { type: string }) => e.type === 'charge').map((e: { via: string }) => e.via))).toEqual(new Set(['monitor']));
  });

  it('draft_replies with too few credits for a draft still delivers the match, undrafted', async () => {
    const { account, subreddit } = await watching(3, { draft_replies: true });
    await postFound(subreddit, { title: 'otter news' });
    expect((await inbox(account.token)).map((m) => [m.status, m.draft_id])).toEqual([['new', null]]);
    await expectExactLedger(account, 2);
  });

  it('a match is dismissed and put back by PATCH, filtered by status, and a published one stays published', async () => {
    const { account, subreddit } = await watching(100);
    clock.advance(5);
    app.reddit.addPost({ subreddit, title: 'otter one', created_utc: clock.seconds() - 2 });
    app.reddit.addPost({ subreddit, title: 'otter two', created_utc: clock.seconds() - 1 });
    clock.advance(5);
    await cycle(app);
    const [second, first] = await inbox(account.token);

    const dismissed = await api('PATCH', `/api/v1/matches/${first!.id}`, account.token, { status: 'dismissed' });
    expect(dismissed.status).toBe(200);
    expect(await dismissed.json()).toMatchObject({ id: first!.id, status: 'dismissed' });
    expect((await inbox(account.token, '&status=new')).map((m) => m.id)).toEqual([second!.id]);
    expect((await inbox(account.token, '&status=dismissed')).map((m) => m.id)).toEqual([first!.id]);
    expect((await (await api('PATCH', `/api/v1/matches/${first!.id}`, account.token, { status: 'new' })).json()).status).toBe('new');

    const draft = await (await api('POST', '/api/v1/generate', account.token, { type: 'reply', reply_to: second!.id })).json();
    const edited = await api('PATCH', `/api/v1/generations/${draft.id}`, account.token, { body: 'Edited by a person.' });
    expect(await edited.json()).toMatchObject({ body: 'Edited by a person.', edited_at: clock.now().toISOString() });
    expect((await api('POST', '/api/v1/publish', account.token, { generation_id: draft.id })).status).toBe(200);
    expect(app.reddit.user.comments.at(-1)!.text).toBe('Edited by a person.');
    const refused = await api('PATCH', `/api/v1/matches/${second!.id}`, account.token, { status: 'dismissed' });
    expect(refused.status).toBe(409);
    expect((await refused.json()).code).toBe('matches.published');
    expect((await (await api('GET', `/api/v1/matches/${second!.id}`, account.token)).json()).status).toBe('published');
    const missing = await api('PATCH', '/api/v1/matches/mat_0c4d2e8f1a3b5c7d9e0f2a4b6c8d', account.token, { status: 'dismissed' });
    expect(missing.status).toBe(404);
    await expectExactLedger(account, 100 - 2 - 5 - 10);
  });
});
