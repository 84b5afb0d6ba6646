/**
 * The answers only some operations give, and how the contract test (test/api/openapi-contract.test.ts)
 * brings each one about: one scenario per (operation, status), and a few more for their codes. The
 * answers every operation gives are in openapi-contract-calls.ts; those of replies, the inbox and the
 * publishing rails in openapi-contract-replies.ts, made with the helpers exported here.
 */
import type { Call } from './openapi-contract-apps.ts';
import {
  NO_ID,
  WEBHOOK,
  callOf,
  checkoutBody,
  comment,
  generateBody,
  get,
  monitorBody,
  post,
  scrapeBody,
  type Checked,
  type World,
} from './openapi-contract-calls.ts';
import { eventually } from './receiver.ts';

/**
 * One answer of one operation: `call` is sent to `main`, as the rich account unless it names a key; `run`
 * does more. `code`, when given, is the problem code the answer must carry: where a status has several
 * and the scenario is there for one of them.
 */
export interface Scenario {
  name: string;
  operation: string;
  status: number;
  code?: string;
  call?: (w: World) => Call | Promise<Call>;
  run?: (w: World) => Promise<Checked>;
}

export const scenario = (operation: string, status: number, what: string, how: Pick<Scenario, 'call' | 'run' | 'code'>): Scenario => ({
  name: `${operation}: ${what} → ${status}${how.code ? ` ${how.code}` : ''}`,
  operation,
  status,
  ...how,
});

const LONG_ID = 'x'.repeat(70); // over the schemas' 64, under the router's 100: a 422
const TOO_LONG_ID = 'x'.repeat(120); // over the router's limit: no resource at all, a 404
const TOO_LARGE = JSON.stringify({ padding: 'x'.repeat(70 * 1024) });

export const ok = (operation: string, status = 200) => scenario(operation, status, 'a valid call', { call: (w) => callOf(w, operation) });

/** 400, 413, 415 and 422 of an operation that takes a JSON body. */
export const bodyRefusals = (operation: string, method: string, target: (w: World) => string, invalid: unknown): Scenario[] => [
  scenario(operation, 400, 'malformed JSON', { call: (w) => ({ method, target: target(w), body: '{"broken' }) }),
  scenario(operation, 413, 'a body over 64 KiB', { call: (w) => ({ method, target: target(w), body: TOO_LARGE }) }),
  scenario(operation, 415, 'a body that is not JSON', {
    call: (w) => ({ method, target: target(w), body: 'hello', headers: { 'content-type': 'text/plain' } }),
  }),
  scenario(operation, 422, 'a body its schema refuses', { call: (w) => ({ method, target: target(w), body: invalid }) }),
];

export const paged = (operation: string, path: string): Scenario[] => [
  scenario(operation, 400, 'a cursor it never gave', { call: () => get(`${path}?cursor=not-a-cursor`) }),
  scenario(operation, 422, 'limit=0', { call: () => get(`${path}?limit=0`) }),
];

export const byId = (operation: string, path: string, prefix: string): Scenario[] => [
  scenario(operation, 404, 'an id of nothing in the account', { call: () => get(`${path}/${prefix}_${NO_ID}`) }),
  scenario(operation, 404, 'an id longer than the router takes', { call: () => get(`${path}/${TOO_LONG_ID}`) }),
  scenario(operation, 422, 'an id longer than the schema allows', { call: () => get(`${path}/${LONG_ID}`) }),
];

/** One call to `main` while an upstream (Reddit, the model) is `arrange`d to misbehave; set back after. */
export async function whileUpstream(w: World, arrange: (on: boolean) => void, call: Call) {
  arrange(true);
  try {
    return await w.send('main', call);
  } finally {
    arrange(false);
  }
}

/**
 * A call held before it binds its Idempotency-Key (its webhook host is being looked up) while a twin
 * with the same key binds it and runs: the held one then finds the key taken, a 409.
 */
async function heldWhileTwinBinds(w: World, call: Call): Promise<Checked> {
  const keyed = { ...call, headers: { 'idempotency-key': `contract-${w.serial()}` } };
  const held = w.main.dns.holdNext();
  const first = w.send('main', keyed);
  await held.reached;
  await w.send('main', keyed);
  held.release();
  return first;
}

/** A retry with the Idempotency-Key while the model still works on the first call. */
async function retryWhileModelAsked(w: World): Promise<Checked> {
  const keyed = { ...post('/api/v1/generate', generateBody), headers: { 'idempotency-key': `contract-${w.serial()}` } };
  const asked = w.main.llm.requests.length;
  w.main.llm.hangNext();
  const first = w.send('main', keyed);
  await eventually(() => w.main.llm.requests.length > asked);
  const retry = await w.send('main', keyed);
  w.main.llm.dropHanging();
  await first;
  return retry;
}

const reddit = (w: World) => w.main.reddit;
const publishComment = (w: World) => post('/api/v1/publish', comment(w));
const scrapeWithHook = post('/api/v1/scrape', { ...scrapeBody, webhook_url: WEBHOOK });
const monitor = (id: string, method = 'GET') => ({ method, target: `/api/v1/monitors/${id}` });

export const SCENARIOS: Scenario[] = [
  ok('getBalance'),
  // Three more ways to a 401, for their codes: a key that is no key, a key in the URL, a key with a control character.
  scenario('getBalance', 401, 'a key of no account', { call: () => ({ ...get('/api/v1/balance'), token: `ak_live_${'0'.repeat(64)}` }) }),
  scenario('getBalance', 401, 'a key in the query string', { call: (w) => ({ ...get(`/api/v1/balance?api_key=${w.rich.token}`), token: null }) }),
  scenario('getBalance', 401, 'a key with a control character, refused by the parser', {
    run: (w) => w.raw('main', 'GET', '/api/v1/balance', `HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer\x01${w.rich.token}\r\n\r\n`),
  }),
  ok('listUsage'),
  ...paged('listUsage', '/api/v1/usage'),
  ok('getDailyUsage'),
  scenario('getDailyUsage', 404, 'a key prefix of no key of the account', { call: () => get('/api/v1/usage/daily?key=ak_live_00000000') }),
  scenario('getDailyUsage', 422, 'days=0', { call: () => get('/api/v1/usage/daily?days=0') }),

  ok('createScrape'),
  scenario('createScrape', 202, 'Prefer: respond-async', {
    call: () => ({ ...post('/api/v1/scrape', scrapeBody), headers: { prefer: 'respond-async' } }),
  }),
  ...bodyRefusals('createScrape', 'POST', () => '/api/v1/scrape', { subreddits: ['r/node'] }),
  scenario('createScrape', 400, 'an Idempotency-Key with a space', {
    call: () => ({ ...post('/api/v1/scrape', scrapeBody), headers: { 'idempotency-key': 'two words' } }),
  }),
  scenario('createScrape', 402, 'an account without credits', { call: (w) => ({ ...post('/api/v1/scrape', scrapeBody), token: w.broke }) }),
  scenario('createScrape', 405, 'HEAD, which a POST-only path does not answer, without a body', {
    call: () => ({ method: 'HEAD', target: '/api/v1/scrape' }),
  }),
  scenario('createScrape', 409, 'a call whose twin bound the Idempotency-Key first', { run: (w) => heldWhileTwinBinds(w, scrapeWithHook) }),
  scenario('createScrape', 502, 'Reddit answering 500', {
    run: (w) => whileUpstream(w, (on) => reddit(w).failAlways(on ? 500 : null), post('/api/v1/scrape', scrapeBody)),
  }),
  scenario('createScrape', 503, 'Reddit answering 503', {
    run: (w) => whileUpstream(w, (on) => reddit(w).failAlways(on ? 503 : null), post('/api/v1/scrape', scrapeBody)),
  }),
  ok('getScrape'),
  ...byId('getScrape', '/api/v1/scrapes', 'scr'),
  ok('listScrapes'),
  ...paged('listScrapes', '/api/v1/scrapes'),

  ok('createGeneration'),
  ...bodyRefusals('createGeneration', 'POST', () => '/api/v1/generate', { type: 'post', instructions: 'no subreddit' }),
  scenario('createGeneration', 402, 'an account without credits', { call: (w) => ({ ...post('/api/v1/generate', generateBody), token: w.broke }) }),
  scenario('createGeneration', 404, 'a reply to a post Reddit does not have', {
    call: () => post('/api/v1/generate', { type: 'reply', post_id: 't3_nosuch', instructions: 'x' }),
  }),
  scenario('createGeneration', 409, 'a retry while the model is still asked', { run: retryWhileModelAsked }),
  scenario('createGeneration', 502, 'the model answering 500', {
    run: (w) => whileUpstream(w, (on) => on && w.main.llm.failNext(500), post('/api/v1/generate', generateBody)),
  }),
  scenario('createGeneration', 504, 'a model that never answers', {
    run: (w) => whileUpstream(w, (on) => on && w.main.llm.hangNext(), post('/api/v1/generate', generateBody)),
  }),
  ok('getGeneration'),
  ...byId('getGeneration', '/api/v1/generations', 'gen'),

  ok('createPublication'),
  ...bodyRefusals('createPublication', 'POST', () => '/api/v1/publish', { type: 'comment', parent: 'not-a-thing', body: 'x' }),
  scenario('createPublication', 402, 'a key past its monthly credit limit', {
    call: async (w) => {
      const { token } = await w.main.services.keys.createKey(w.rich.accountId, `limited-${w.serial()}`, { monthlyCreditLimit: 1 });
      return { ...publishComment(w), token };
    },
  }),
  scenario('createPublication', 403, 'Reddit refusing the Reddit user', {
    run: (w) => whileUpstream(w, (on) => on && reddit(w).user.failNext(403, { message: 'Forbidden', error: 403 }), publishComment(w)),
  }),
  scenario('createPublication', 404, 'a draft that does not exist', { call: () => post('/api/v1/publish', { generation_id: `gen_${NO_ID}` }) }),
  scenario('createPublication', 409, 'the same text to the same place again', {
    run: async (w) => {
      const again = publishComment(w);
      await w.send('main', again);
      return w.send('main', again);
    },
  }),
  scenario('createPublication', 409, 'an account with no Reddit user connected', {
    call: async (w) => ({ ...publishComment(w), token: (await w.main.accountWithKey(100)).token }),
  }),
  scenario('createPublication', 422, 'Reddit refusing the post', {
    run: (w) => {
      const refused = "you aren't allowed to post there.";
      return whileUpstream(w, (on) => on && reddit(w).user.rejectNext('SUBREDDIT_NOTALLOWED', refused, 'sr'), publishComment(w));
    },
  }),
  scenario('createPublication', 429, "Reddit's RATELIMIT", {
    run: (w) => {
      const tooFast = 'you are doing that too much. try again in 9 minutes.';
      return whileUpstream(w, (on) => on && reddit(w).user.rejectNext('RATELIMIT', tooFast, 'ratelimit'), publishComment(w));
    },
  }),
  scenario('createPublication', 502, 'Reddit answering 503', {
    run: (w) => whileUpstream(w, (on) => on && reddit(w).user.failNext(503), publishComment(w)),
  }),
  scenario('createPublication', 504, 'Reddit not answering in time', {
    run: (w) => whileUpstream(w, (on) => (reddit(w).user.delayMs = on ? 1000 : 0), publishComment(w)),
  }),
  ok('getPublication'),
  ...byId('getPublication', '/api/v1/publications', 'pub'),

  ok('createMonitor', 201),
  ...bodyRefusals('createMonitor', 'POST', () => '/api/v1/monitors', { name: 'No keywords', subreddits: ['r/node'] }),
  scenario('createMonitor', 409, 'a call whose twin bound the Idempotency-Key first', {
    run: (w) => heldWhileTwinBinds(w, post('/api/v1/monitors', { ...monitorBody, webhook_url: WEBHOOK })),
  }),
  ok('listMonitors'),
  ...paged('listMonitors', '/api/v1/monitors'),
  ok('getMonitor'),
  ...byId('getMonitor', '/api/v1/monitors', 'mon'),
  ok('updateMonitor'),
  scenario('updateMonitor', 200, 'excluded subreddits, answered with the preview', {
    call: (w) => ({ ...monitor(w.ids.monitor, 'PATCH'), body: { exclude_subreddits: ['r/gaming'] } }),
  }),
  ...bodyRefusals('updateMonitor', 'PATCH', (w) => `/api/v1/monitors/${w.ids.monitor}`, { keywords: [] }),
  scenario('updateMonitor', 404, 'a monitor that does not exist', { call: () => ({ ...monitor(`mon_${NO_ID}`, 'PATCH'), body: { name: 'x' } }) }),
  scenario('deleteMonitor', 204, 'deleting a monitor', {
    run: async (w) => {
      const created = JSON.parse((await w.send('main', post('/api/v1/monitors', monitorBody))).body) as { id: string };
      return w.send('main', monitor(created.id, 'DELETE'));
    },
  }),
  scenario('deleteMonitor', 404, 'a monitor that does not exist', { call: () => monitor(`mon_${NO_ID}`, 'DELETE') }),
  scenario('deleteMonitor', 422, 'an id longer than the schema allows', { call: () => monitor(LONG_ID, 'DELETE') }),
  ok('listMonitorMatches'),
  scenario('listMonitorMatches', 400, 'after and cursor together', {
    call: (w) => get(`/api/v1/monitors/${w.ids.monitor}/matches?after=mat_${NO_ID}&cursor=x`),
  }),
  scenario('listMonitorMatches', 404, 'a monitor that does not exist', { call: () => get(`/api/v1/monitors/mon_${NO_ID}/matches`) }),
  scenario('listMonitorMatches', 422, 'limit=0', { call: (w) => get(`/api/v1/monitors/${w.ids.monitor}/matches?limit=0`) }),

  ok('createCheckout', 201),
  ...bodyRefusals('createCheckout', 'POST', () => '/api/v1/credits/checkout', { credits: 0 }),
  scenario('createCheckout', 422, 'a number of credits no pack has', { call: () => post('/api/v1/credits/checkout', { credits: 7 }) }),
  // Three failures: the first call and stripe-node's two retries.
  scenario('createCheckout', 502, 'Stripe answering 500', {
    run: (w) => whileUpstream(w, (on) => on && w.main.stripe.failNext(500, 3), post('/api/v1/credits/checkout', checkoutBody)),
  }),
  ok('getPayment'),
  ...byId('getPayment', '/api/v1/credits/payments', 'pay'),
  ok('listCreditPacks'),
];

/** A call to `limits` with a key of its own (two calls a minute each). */
const onLimits = (call: (w: World) => Call) => async (w: World) => w.send('limits', { ...call(w), token: await w.freshLimitsKey() });

/** On `limits`, which has no language model, no SECRET_KEY and no Stripe: what a server without them answers. */
export const NOT_CONFIGURED: Scenario[] = [
  scenario('createGeneration', 503, 'a server without a language model', { run: onLimits(() => post('/api/v1/generate', generateBody)) }),
  scenario('createPublication', 503, 'a server without Reddit connections', { run: onLimits(publishComment) }),
  scenario('createMonitor', 503, 'a webhook on a server without SECRET_KEY', {
    run: onLimits(() => post('/api/v1/monitors', { ...monitorBody, webhook_url: WEBHOOK })),
  }),
  scenario('createMonitor', 503, 'all of Reddit on a server without the site-wide stream', {
    run: onLimits(() => post('/api/v1/monitors', { ...monitorBody, subreddits: ['all'] })),
  }),
  scenario('createCheckout', 409, 'a server that sells no credits', { run: onLimits(() => post('/api/v1/credits/checkout', checkoutBody)) }),
  scenario('listCreditPacks', 200, 'a server that sells no credits: no packs', { run: onLimits(() => get('/api/v1/credits/packs')) }),
  scenario('updateMonitor', 503, 'a webhook on a server without SECRET_KEY', {
    run: async (w) => {
      const token = await w.freshLimitsKey();
      const created = JSON.parse((await w.send('limits', { ...post('/api/v1/monitors', monitorBody), token })).body) as { id: string };
      return w.send('limits', { ...monitor(created.id, 'PATCH'), body: { webhook_url: WEBHOOK }, token });
    },
  }),
];
