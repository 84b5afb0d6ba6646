/**
 * How the contract test (test/api/openapi-contract.test.ts) brings each operation to each status it
 * documents: one valid call per operation, the answers every operation can give (a missing key, a
 * throttled one, a request the parser refuses, …), and the answers only some operations give.
 */
import type { Scope } from '../../src/modules/keys/keys.scopes.ts';
import type { Answer } from './openapi-contract.ts';
import type { Call, LimitsApp, MainApp } from './openapi-contract-apps.ts';
import type { ConnectedAccount } from './publishing.ts';
import { eventually } from './receiver.ts';

export type Checked = Answer & { issues: string[]; operations: string[] };

export interface World {
  main: MainApp;
  limits: LimitsApp;
  /** Sends, and checks the answer against the document: every answer of the run goes through here. */
  send(app: 'main' | 'limits', call: Call): Promise<Checked>;
  raw(app: 'main' | 'limits', method: string, target: string, head: string): Promise<Checked>;
  /** Every scope, plenty of credits, a connected Reddit user: the default caller of `main`. */
  rich: ConnectedAccount;
  /** A key of an account with no credits. */
  broke: string;
  /** A key of `rich` with every scope but this one. */
  keyWithout(scope: Scope): Promise<string>;
  /** A key of a fresh account on `limits`, whose two calls a minute are still unused. */
  freshLimitsKey(): Promise<string>;
  /** A key on `limits` that has used up its calls this minute. */
  throttled: string;
  ids: { scrape: string; generation: string; publication: string; monitor: string };
  /** A number of its own for each call, so no two texts or keys are the same. */
  serial(): number;
}

const NO_ID = '0'.repeat(28);
const LONG_ID = 'x'.repeat(70); // over the schemas' 64, under the router's 100: a 422
const TOO_LONG_ID = 'x'.repeat(120); // over the router's limit: no resource at all, a 404
const TOO_LARGE = JSON.stringify({ padding: 'x'.repeat(70 * 1024) });
/** A receiver no one runs (port 9, discard): deliveries to it fail at once and stay on this machine. */
export const WEBHOOK = 'http://hooks.contract.test:9/hook';

const get = (target: string): Call => ({ method: 'GET', target });
const post = (target: string, body: unknown): Call => ({ method: 'POST', target, body });
export const scrapeBody = { subreddits: ['r/node'], keywords: ['contract'] };
// A reply: the fake model's one-line answer is a whole reply, where a post would want a title and a body.
const generateBody = { type: 'reply', post_id: 't3_c1', instructions: 'A short tip' };
export const monitorBody = { name: 'Contract watch', subreddits: ['r/node'], keywords: ['contract'] };
export const comment = (w: World) => ({ type: 'comment', parent: 't3_c1', body: `Contract comment ${w.serial()}` });

/** A valid call of each operation but HEAD (a HEAD twin sends its GET's call), and the scope its key needs. */
export const CALLS: Record<string, { method: string; scope: Scope; target: (w: World) => string; body?: (w: World) => unknown }> = {
  getBalance: { method: 'GET', scope: 'read', target: () => '/api/v1/balance' },
  listUsage: { method: 'GET', scope: 'read', target: () => '/api/v1/usage' },
  getDailyUsage: { method: 'GET', scope: 'read', target: () => '/api/v1/usage/daily' },
  createScrape: { method: 'POST', scope: 'scrape', target: () => '/api/v1/scrape', body: () => scrapeBody },
  getScrape: { method: 'GET', scope: 'read', target: (w) => `/api/v1/scrapes/${w.ids.scrape}` },
  listScrapes: { method: 'GET', scope: 'read', target: () => '/api/v1/scrapes' },
  createGeneration: { method: 'POST', scope: 'generate', target: () => '/api/v1/generate', body: () => generateBody },
  getGeneration: { method: 'GET', scope: 'read', target: (w) => `/api/v1/generations/${w.ids.generation}` },
  createPublication: { method: 'POST', scope: 'publish', target: () => '/api/v1/publish', body: comment },
  getPublication: { method: 'GET', scope: 'read', target: (w) => `/api/v1/publications/${w.ids.publication}` },
  createMonitor: { method: 'POST', scope: 'monitors', target: () => '/api/v1/monitors', body: () => monitorBody },
  listMonitors: { method: 'GET', scope: 'read', target: () => '/api/v1/monitors' },
  getMonitor: { method: 'GET', scope: 'read', target: (w) => `/api/v1/monitors/${w.ids.monitor}` },
  updateMonitor: { method: 'PATCH', scope: 'monitors', target: (w) => `/api/v1/monitors/${w.ids.monitor}`, body: () => ({ name: 'Renamed' }) },
  // A monitor of nobody: the answers every operation gives come before the look-up, and none deletes one.
  deleteMonitor: { method: 'DELETE', scope: 'monitors', target: () => `/api/v1/monitors/mon_${NO_ID}` },
  listMonitorMatches: { method: 'GET', scope: 'read', target: (w) => `/api/v1/monitors/${w.ids.monitor}/matches` },
};

/** The valid call of an operation (not HEAD). */
export const callOf = (w: World, operation: string): Call => {
  const { method, target, body } = CALLS[operation]!;
  return { method, target: target(w), body: body?.(w) };
};

/** The answers any operation can give; each is sent to every operation of the document at once. */
export interface EveryOperation {
  name: string;
  status: number;
  send: (w: World, call: Call, scope: Scope) => Promise<Checked>;
}

export const EVERY_OPERATION: EveryOperation[] = [
  { name: 'a call without a key is a 401', status: 401, send: (w, call) => w.send('main', { ...call, token: null }) },
  {
    name: 'a key without the scope the operation needs is a 403',
    status: 403,
    send: async (w, call, scope) => w.send('main', { ...call, token: await w.keyWithout(scope) }),
  },
  // The document lists the 405 of a path under each of its operations; the contract checks it against each.
  { name: 'a method the path does not answer is a 405 with Allow', status: 405, send: (w, call) => w.send('main', { ...call, method: 'PUT' }) },
  { name: 'an HTTP/1.1 request without Host is a 400', status: 400, send: (w, call) => w.raw('main', call.method, call.target, 'HTTP/1.1\r\n\r\n') },
  {
    name: "a request Node's parser refuses is a 400",
    status: 400,
    send: (w, call) => w.raw('main', call.method, call.target, 'HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'),
  },
  {
    name: 'headers over 16 KiB are a 431',
    status: 431,
    send: (w, call) => w.raw('main', call.method, call.target, `HTTP/1.1\r\nHost: x\r\nX-Padding: ${'x'.repeat(20_000)}\r\n\r\n`),
  },
  { name: 'headers that never end are a 408', status: 408, send: (w, call) => w.raw('main', call.method, call.target, 'HTTP/1.1\r\nHost: x\r\n') },
  { name: 'a key past its rate limit is a 429', status: 429, send: (w, call) => w.send('limits', { ...call, token: w.throttled }) },
];

/** One answer of one operation: `call` is sent to `main` as the rich account unless it names its own key; `run` does more. */
export interface Scenario {
  name: string;
  operation: string;
  status: number;
  call?: (w: World) => Call | Promise<Call>;
  run?: (w: World) => Promise<Checked>;
}

const body = (method: string, target: string, content: unknown, headers?: Record<string, string>) => (w: World): Call => ({ method, target, body: content, headers });
/** 400, 413, 415 and 422 of an operation that takes a JSON body. */
const bodyRefusals = (operation: string, method: string, target: (w: World) => string, invalid: unknown): Scenario[] => [
  { name: `${operation}: malformed JSON is a 400`, operation, status: 400, call: (w) => body(method, target(w), '{"broken')(w) },
  { name: `${operation}: a body over 64 KiB is a 413`, operation, status: 413, call: (w) => body(method, target(w), TOO_LARGE)(w) },
  { name: `${operation}: a body that is not JSON is a 415`, operation, status: 415, call: (w) => body(method, target(w), 'hello', { 'content-type': 'text/plain' })(w) },
  { name: `${operation}: a body its schema refuses is a 422`, operation, status: 422, call: (w) => body(method, target(w), invalid)(w) },
];
const paged = (operation: string, path: string): Scenario[] => [
  { name: `${operation}: a cursor it never gave is a 400`, operation, status: 400, call: () => get(`${path}?cursor=not-a-cursor`) },
  { name: `${operation}: limit=0 is a 422`, operation, status: 422, call: () => get(`${path}?limit=0`) },
];
const byId = (operation: string, path: string, prefix: string): Scenario[] => [
  { name: `${operation}: an id of nothing in the account is a 404`, operation, status: 404, call: () => get(`${path}/${prefix}_${NO_ID}`) },
  { name: `${operation}: an id longer than the router takes is a 404`, operation, status: 404, call: () => get(`${path}/${TOO_LONG_ID}`) },
  { name: `${operation}: an id longer than the schema allows is a 422`, operation, status: 422, call: () => get(`${path}/${LONG_ID}`) },
];
const ok = (operation: string, status = 200): Scenario => ({ name: `${operation}: a valid call is a ${status}`, operation, status, call: (w) => callOf(w, operation) });

/** With Reddit's answers `fail`ing as told for the length of one call. */
async function whileReddit(w: World, fail: (on: boolean) => void, call: Call) {
  fail(true);
  try {
    return await w.send('main', call);
  } finally {
    fail(false);
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

export const SCENARIOS: Scenario[] = [
  ok('getBalance'),
  ok('listUsage'),
  ...paged('listUsage', '/api/v1/usage'),
  ok('getDailyUsage'),
  { name: 'getDailyUsage: a key prefix of no key of the account is a 404', operation: 'getDailyUsage', status: 404, call: () => get('/api/v1/usage/daily?key=ak_live_00000000') },
  { name: 'getDailyUsage: days=0 is a 422', operation: 'getDailyUsage', status: 422, call: () => get('/api/v1/usage/daily?days=0') },

  ok('createScrape'),
  { name: 'createScrape: Prefer: respond-async is a 202 with Location', operation: 'createScrape', status: 202, call: () => ({ ...post('/api/v1/scrape', scrapeBody), headers: { prefer: 'respond-async' } }) },
  ...bodyRefusals('createScrape', 'POST', () => '/api/v1/scrape', { subreddits: ['r/node'] }),
  { name: 'createScrape: an Idempotency-Key with a space is a 400', operation: 'createScrape', status: 400, call: () => ({ ...post('/api/v1/scrape', scrapeBody), headers: { 'idempotency-key': 'two words' } }) },
  { name: 'createScrape: an account without credits gets 402', operation: 'createScrape', status: 402, call: (w) => ({ ...post('/api/v1/scrape', scrapeBody), token: w.broke }) },
  { name: 'createScrape: a call whose twin bound the Idempotency-Key first is a 409', operation: 'createScrape', status: 409, run: (w) => heldWhileTwinBinds(w, post('/api/v1/scrape', { ...scrapeBody, webhook_url: WEBHOOK })) },
  { name: 'createScrape: Reddit answering 500 is a 502', operation: 'createScrape', status: 502, run: (w) => whileReddit(w, (on) => w.main.reddit.failAlways(on ? 500 : null), post('/api/v1/scrape', scrapeBody)) },
  { name: 'createScrape: Reddit answering 503 is a 503', operation: 'createScrape', status: 503, run: (w) => whileReddit(w, (on) => w.main.reddit.failAlways(on ? 503 : null), post('/api/v1/scrape', scrapeBody)) },
  { name: 'createScrape: HEAD, which a POST-only path does not answer, is a 405 without a body', operation: 'createScrape', status: 405, call: () => ({ method: 'HEAD', target: '/api/v1/scrape' }) },
  ok('getScrape'),
  ...byId('getScrape', '/api/v1/scrapes', 'scr'),
  ok('listScrapes'),
  ...paged('listScrapes', '/api/v1/scrapes'),

  ok('createGeneration'),
  ...bodyRefusals('createGeneration', 'POST', () => '/api/v1/generate', { type: 'post', instructions: 'no subreddit' }),
  { name: 'createGeneration: an account without credits gets 402', operation: 'createGeneration', status: 402, call: (w) => ({ ...post('/api/v1/generate', generateBody), token: w.broke }) },
  { name: 'createGeneration: a reply to a post Reddit does not have is a 404', operation: 'createGeneration', status: 404, call: () => post('/api/v1/generate', { type: 'reply', post_id: 't3_nosuch', instructions: 'x' }) },
  {
    name: 'createGeneration: a retry while the model is still asked is a 409',
    operation: 'createGeneration',
    status: 409,
    run: async (w) => {
      const keyed = { ...post('/api/v1/generate', generateBody), headers: { 'idempotency-key': `contract-${w.serial()}` } };
      const asked = w.main.llm.requests.length;
      w.main.llm.hangNext();
      const first = w.send('main', keyed);
      await eventually(() => w.main.llm.requests.length > asked);
      const retry = await w.send('main', keyed);
      w.main.llm.dropHanging();
      await first;
      return retry;
    },
  },
  { name: 'createGeneration: the model answering 500 is a 502', operation: 'createGeneration', status: 502, run: (w) => whileReddit(w, (on) => on && w.main.llm.failNext(500), post('/api/v1/generate', generateBody)) },
  { name: 'createGeneration: a model that never answers is a 504', operation: 'createGeneration', status: 504, run: (w) => whileReddit(w, (on) => on && w.main.llm.hangNext(), post('/api/v1/generate', generateBody)) },
  ok('getGeneration'),
  ...byId('getGeneration', '/api/v1/generations', 'gen'),

  ok('createPublication'),
  ...bodyRefusals('createPublication', 'POST', () => '/api/v1/publish', { type: 'comment', parent: 'not-a-thing', body: 'x' }),
  {
    name: 'createPublication: a key past its monthly credit limit gets 402',
    operation: 'createPublication',
    status: 402,
    call: async (w) => ({ ...post('/api/v1/publish', comment(w)), token: (await w.main.services.keys.createKey(w.rich.accountId, `limited-${w.serial()}`, { monthlyCreditLimit: 1 })).token }),
  },
  { name: 'createPublication: Reddit refusing the Reddit user is a 403', operation: 'createPublication', status: 403, run: (w) => whileReddit(w, (on) => on && w.main.reddit.user.failNext(403, { message: 'Forbidden', error: 403 }), post('/api/v1/publish', comment(w))) },
  { name: 'createPublication: a draft that does not exist is a 404', operation: 'createPublication', status: 404, call: () => post('/api/v1/publish', { generation_id: `gen_${NO_ID}` }) },
  { name: 'createPublication: the same text to the same place again is a 409', operation: 'createPublication', status: 409, run: async (w) => { const again = comment(w); await w.send('main', post('/api/v1/publish', again)); return w.send('main', post('/api/v1/publish', again)); } },
  { name: 'createPublication: an account with no Reddit user connected gets 409', operation: 'createPublication', status: 409, call: async (w) => ({ ...post('/api/v1/publish', comment(w)), token: (await w.main.accountWithKey(100)).token }) },
  { name: 'createPublication: Reddit refusing the post is a 422', operation: 'createPublication', status: 422, run: (w) => whileReddit(w, (on) => on && w.main.reddit.user.rejectNext('SUBREDDIT_NOTALLOWED', "you aren't allowed to post there.", 'sr'), post('/api/v1/publish', comment(w))) },
  { name: "createPublication: Reddit's RATELIMIT is a 429", operation: 'createPublication', status: 429, run: (w) => whileReddit(w, (on) => on && w.main.reddit.user.rejectNext('RATELIMIT', 'you are doing that too much. try again in 9 minutes.', 'ratelimit'), post('/api/v1/publish', comment(w))) },
  { name: 'createPublication: Reddit answering 503 is a 502', operation: 'createPublication', status: 502, run: (w) => whileReddit(w, (on) => on && w.main.reddit.user.failNext(503), post('/api/v1/publish', comment(w))) },
  { name: 'createPublication: Reddit not answering in time is a 504', operation: 'createPublication', status: 504, run: (w) => whileReddit(w, (on) => (w.main.reddit.user.delayMs = on ? 1000 : 0), post('/api/v1/publish', comment(w))) },
  ok('getPublication'),
  ...byId('getPublication', '/api/v1/publications', 'pub'),

  ok('createMonitor', 201),
  ...bodyRefusals('createMonitor', 'POST', () => '/api/v1/monitors', { name: 'No keywords', subreddits: ['r/node'] }),
  { name: 'createMonitor: a call whose twin bound the Idempotency-Key first is a 409', operation: 'createMonitor', status: 409, run: (w) => heldWhileTwinBinds(w, post('/api/v1/monitors', { ...monitorBody, webhook_url: WEBHOOK })) },
  ok('listMonitors'),
  ...paged('listMonitors', '/api/v1/monitors'),
  ok('getMonitor'),
  ...byId('getMonitor', '/api/v1/monitors', 'mon'),
  ok('updateMonitor'),
  ...bodyRefusals('updateMonitor', 'PATCH', (w) => `/api/v1/monitors/${w.ids.monitor}`, { keywords: [] }),
  { name: 'updateMonitor: a monitor that does not exist is a 404', operation: 'updateMonitor', status: 404, call: () => ({ method: 'PATCH', target: `/api/v1/monitors/mon_${NO_ID}`, body: { name: 'x' } }) },
  {
    name: 'deleteMonitor: deleting a monitor is a 204',
    operation: 'deleteMonitor',
    status: 204,
    run: async (w) => {
      const created = JSON.parse((await w.send('main', post('/api/v1/monitors', monitorBody))).body) as { id: string };
      return w.send('main', { method: 'DELETE', target: `/api/v1/monitors/${created.id}` });
    },
  },
  { name: 'deleteMonitor: a monitor that does not exist is a 404', operation: 'deleteMonitor', status: 404, call: () => ({ method: 'DELETE', target: `/api/v1/monitors/mon_${NO_ID}` }) },
  { name: 'deleteMonitor: an id longer than the schema allows is a 422', operation: 'deleteMonitor', status: 422, call: () => ({ method: 'DELETE', target: `/api/v1/monitors/${LONG_ID}` }) },
  ok('listMonitorMatches'),
  { name: 'listMonitorMatches: after and cursor together are a 400', operation: 'listMonitorMatches', status: 400, call: (w) => get(`/api/v1/monitors/${w.ids.monitor}/matches?after=mat_${NO_ID}&cursor=x`) },
  { name: 'listMonitorMatches: a monitor that does not exist is a 404', operation: 'listMonitorMatches', status: 404, call: () => get(`/api/v1/monitors/mon_${NO_ID}/matches`) },
  { name: 'listMonitorMatches: limit=0 is a 422', operation: 'listMonitorMatches', status: 422, call: (w) => get(`/api/v1/monitors/${w.ids.monitor}/matches?limit=0`) },
];

/** On `limits`, which has no language model and no SECRET_KEY: what a server without them answers. */
export const NOT_CONFIGURED: Scenario[] = [
  { name: 'createGeneration: a server without a language model answers 503', operation: 'createGeneration', status: 503, run: async (w) => w.send('limits', { ...post('/api/v1/generate', generateBody), token: await w.freshLimitsKey() }) },
  { name: 'createPublication: a server without Reddit connections answers 503', operation: 'createPublication', status: 503, run: async (w) => w.send('limits', { ...post('/api/v1/publish', comment(w)), token: await w.freshLimitsKey() }) },
  { name: 'createMonitor: a webhook on a server without SECRET_KEY is a 503', operation: 'createMonitor', status: 503, run: async (w) => w.send('limits', { ...post('/api/v1/monitors', { ...monitorBody, webhook_url: WEBHOOK }), token: await w.freshLimitsKey() }) },
  {
    name: 'updateMonitor: a webhook on a server without SECRET_KEY is a 503',
    operation: 'updateMonitor',
    status: 503,
    run: async (w) => {
      const token = await w.freshLimitsKey();
      const created = JSON.parse((await w.send('limits', { ...post('/api/v1/monitors', monitorBody), token })).body) as { id: string };
      return w.send('limits', { method: 'PATCH', target: `/api/v1/monitors/${created.id}`, body: { webhook_url: WEBHOOK }, token });
    },
  },
];
