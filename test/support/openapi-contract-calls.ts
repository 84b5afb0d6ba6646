/**
 * What the contract test (test/api/openapi-contract.test.ts) works with: the world its scenarios run
 * in, one valid call of each operation, and the answers every operation can give (a missing key, a
 * throttled one, a request the parser refuses, …), each sent to all of them.
 */
import type { Scope } from '../../src/modules/keys/keys.scopes.ts';
import type { Answer } from './openapi-contract.ts';
import type { Call, LimitsApp, MainApp } from './openapi-contract-apps.ts';
import type { ConnectedAccount } from './publishing.ts';

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
  /** A key on `limits` for the 429s, and for the calls once its database is gone. */
  throttled: string;
  ids: { scrape: string; generation: string; publication: string; monitor: string; match: string; payment: string; destination: string };
  /** Stores matches of a monitor as the poller does (one store for the run: it numbers them, and ids must not repeat). */
  storeMatches(monitorId: string, accountId: string, count: number): Promise<string[]>;
  /** A number of its own for each call, so no two texts or keys are the same. */
  serial(): number;
}

/** The id part of a resource id that names nothing. */
export const NO_ID = '0'.repeat(28);
/** A receiver no one runs (port 9, discard): deliveries to it fail at once and stay on this machine. */
export const WEBHOOK = 'http://hooks.contract.test:9/hook';

export const get = (target: string): Call => ({ method: 'GET', target });
export const post = (target: string, body: unknown): Call => ({ method: 'POST', target, body });
export const scrapeBody = { subreddits: ['r/node'], keywords: ['contract'] };
// A reply: the fake model's one-line answer is a whole reply, where a post would want a title and a body.
export const generateBody = { type: 'reply', reply_to: 't3_c1', instructions: 'A short tip' };
export const monitorBody = { name: 'Contract watch', subreddits: ['r/node'], keywords: ['contract'] };
// The smaller of the contract app's two packs (CREDIT_PACKS 500:5.00,2000:18.00).
export const checkoutBody = { credits: 500 };
/**
 * A comment under a post of its own that the service holds nothing of: the rails then know neither its
 * subreddit nor another reply in its thread, so the rich account's many comments of this run meet no
 * rail but the hourly pace, which counts only those that went out (a few: most scenarios are refusals).
 * The rails' own refusals are brought about on accounts of their own (openapi-contract-replies.ts).
 * Reddit (the fake) takes any parent.
 */
export const comment = (w: World) => {
  const n = w.serial();
  return { type: 'comment', parent: `t3_k${n}`, body: `Contract comment ${n}` };
};

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
  updateGeneration: {
    method: 'PATCH',
    scope: 'generate',
    target: (w) => `/api/v1/generations/${w.ids.generation}`,
    body: (w) => ({ body: `Edited by a person, ${w.serial()}.` }),
  },
  createPublication: { method: 'POST', scope: 'publish', target: () => '/api/v1/publish', body: comment },
  getPublication: { method: 'GET', scope: 'read', target: (w) => `/api/v1/publications/${w.ids.publication}` },
  createMonitor: { method: 'POST', scope: 'monitors', target: () => '/api/v1/monitors', body: () => monitorBody },
  listMonitors: { method: 'GET', scope: 'read', target: () => '/api/v1/monitors' },
  getMonitor: { method: 'GET', scope: 'read', target: (w) => `/api/v1/monitors/${w.ids.monitor}` },
  updateMonitor: { method: 'PATCH', scope: 'monitors', target: (w) => `/api/v1/monitors/${w.ids.monitor}`, body: () => ({ name: 'Renamed' }) },
  // A monitor of nobody: the answers every operation gives come before the look-up, and none deletes one.
  deleteMonitor: { method: 'DELETE', scope: 'monitors', target: () => `/api/v1/monitors/mon_${NO_ID}` },
  listMonitorMatches: { method: 'GET', scope: 'read', target: (w) => `/api/v1/monitors/${w.ids.monitor}/matches` },
  listInbox: { method: 'GET', scope: 'read', target: () => '/api/v1/inbox' },
  getStreamCoverage: { method: 'GET', scope: 'read', target: () => '/api/v1/stream/coverage' },
  getMatch: { method: 'GET', scope: 'read', target: (w) => `/api/v1/matches/${w.ids.match}` },
  updateMatch: { method: 'PATCH', scope: 'monitors', target: (w) => `/api/v1/matches/${w.ids.match}`, body: () => ({ status: 'dismissed' }) },
  createCheckout: { method: 'POST', scope: 'billing', target: () => '/api/v1/credits/checkout', body: () => checkoutBody },
  getPayment: { method: 'GET', scope: 'read', target: (w) => `/api/v1/credits/payments/${w.ids.payment}` },
  listCreditPacks: { method: 'GET', scope: 'read', target: () => '/api/v1/credits/packs' },
  createDestination: {
    method: 'POST',
    scope: 'monitors',
    target: () => '/api/v1/destinations',
    body: (w) => ({ kind: 'discord', name: `Contract ${w.serial()}`, url: `http://127.0.0.1:9/api/webhooks/1${w.serial()}/contract` }),
  },
  listDestinations: { method: 'GET', scope: 'read', target: () => '/api/v1/destinations' },
  getDestination: { method: 'GET', scope: 'read', target: (w) => `/api/v1/destinations/${w.ids.destination}` },
  updateDestination: { method: 'PATCH', scope: 'monitors', target: (w) => `/api/v1/destinations/${w.ids.destination}`, body: (w) => ({ name: `Contract ${w.serial()}` }) },
  // A destination of nobody, as deleteMonitor's.
  deleteDestination: { method: 'DELETE', scope: 'monitors', target: () => `/api/v1/destinations/dst_${NO_ID}` },
  testDestination: { method: 'POST', scope: 'monitors', target: (w) => `/api/v1/destinations/${w.ids.destination}/test`, body: () => ({}) },
  listDestinationDeliveries: { method: 'GET', scope: 'read', target: (w) => `/api/v1/destinations/${w.ids.destination}/deliveries` },
  listMonitorRoutes: { method: 'GET', scope: 'read', target: (w) => `/api/v1/monitors/${w.ids.monitor}/destinations` },
  routeMonitor: { method: 'PUT', scope: 'monitors', target: (w) => `/api/v1/monitors/${w.ids.monitor}/destinations/${w.ids.destination}`, body: () => ({ frequency: 'instant' }) },
  // A route of nobody's monitor, as deleteMonitor's.
  unrouteMonitor: { method: 'DELETE', scope: 'monitors', target: (w) => `/api/v1/monitors/mon_${NO_ID}/destinations/${w.ids.destination}` },
};

/** A method the path does not answer: PUT, but PATCH for the one path that takes PUT (a monitor's route to a destination). */
const unanswered = (target: string) => (/^\/api\/v1\/monitors\/[^/]+\/destinations\/[^/?]+/.test(target) ? 'PATCH' : 'PUT');

/** The valid call of an operation (not HEAD). */
export const callOf = (w: World, operation: string): Call => {
  const { method, target, body } = CALLS[operation]!;
  return { method, target: target(w), body: body?.(w) };
};

/** The answers any operation can give; each is sent to every operation of the document at once, after `before`. */
interface EveryOperation {
  name: string;
  status: number;
  before?: (w: World) => Promise<void>;
  send: (w: World, call: Call, scope: Scope) => Promise<Checked>;
}

/**
 * Uses up the throttled key's calls of this minute, and makes sure a few seconds of the minute are
 * left: the limits count in fixed windows, and a new one would let the next calls through.
 */
async function useUpThrottledKey(w: World) {
  for (;;) {
    const answer = await w.send('limits', { method: 'GET', target: '/api/v1/balance', token: w.throttled });
    const reset = Number(/;t=(\d+)/.exec(answer.headers.ratelimit ?? '')?.[1] ?? 0);
    if (answer.status === 429 && reset >= 5) return;
    if (reset < 5) await new Promise((resolve) => setTimeout(resolve, (reset + 1) * 1000));
  }
}

export const EVERY_OPERATION: EveryOperation[] = [
  { name: 'a call without a key is a 401', status: 401, send: (w, call) => w.send('main', { ...call, token: null }) },
  {
    name: 'a key without the scope the operation needs is a 403',
    status: 403,
    send: async (w, call, scope) => w.send('main', { ...call, token: await w.keyWithout(scope) }),
  },
  // The document lists the 405 of a path under each of its operations; the contract checks it against each.
  { name: 'a method the path does not answer is a 405 with Allow', status: 405, send: (w, call) => w.send('main', { ...call, method: unanswered(call.target) }) },
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
  {
    name: 'a key past its rate limit is a 429',
    status: 429,
    before: useUpThrottledKey,
    send: (w, call) => w.send('limits', { ...call, token: w.throttled }),
  },
];
