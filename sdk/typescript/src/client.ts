import { Transport, type CallInput, type ResponseMeta } from './transport.js';
import type { OperationId } from './routes.js';
import type { Answer, Body, Item, PagedOperationId, Query } from './types.js';

export interface SubpilotOptions {
  /** The API key (`ak_live_…`). Default: `SUBPILOT_API_KEY` from the environment (Node, Deno, Bun). */
  apiKey?: string;
  /** The server's address, e.g. `https://subpilot.example.com`. Default: `http://127.0.0.1:8080`. */
  baseUrl?: string;
  /** Retries after the first attempt (default 3). 0 turns retrying off. */
  maxRetries?: number;
  /** The longest wait before a retry (default 60 000 ms): an answer whose `Retry-After` asks for longer is thrown at once. */
  maxRetryWaitMs?: number;
  /** How long one attempt may take before it counts as lost (default 60 000 ms; a scrape waits up to 25 s). */
  timeoutMs?: number;
  /** The fetch to send with (default: the global one). */
  fetch?: typeof fetch;
  /** How a wait before a retry passes (default: a timer); tests pass one that returns at once. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter for back-off without `Retry-After` (default `Math.random`). */
  random?: () => number;
}

/** Options of any call: an `AbortSignal` to cancel it, retries included. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Options of a call that takes an `Idempotency-Key`: pass one to continue a call an earlier run gave up on. */
export interface KeyedOptions extends CallOptions {
  idempotencyKey?: string;
}

const environmentKey = () => (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.SUBPILOT_API_KEY;
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** What may be shown of a key: its display prefix (`ak_live_` and 8 hex), which the dashboard shows too and is no secret. */
const shownKey = (key: string) => (/^ak_live_[0-9a-f]{8}/.test(key) ? `${key.slice(0, 16)}…` : '[redacted]');
const inspect = Symbol.for('nodejs.util.inspect.custom');

/**
 * The subpilot API. One method per operation, named as the document's operationId; each resolves to
 * the answer's JSON and throws `SubpilotError` (an error answer) or `SubpilotConnectionError` (none).
 * The key lives in a private field: it is sent in `Authorization` only, and inspecting, logging or
 * serialising the client shows its display prefix at most.
 */
export class Subpilot {
  readonly #transport: Transport;
  readonly #shownKey: string;
  readonly #meta = new WeakMap<object, ResponseMeta>();
  /** The last answer any call of this client got (with concurrent calls, prefer `responseOf`). */
  lastResponse: ResponseMeta | null = null;

  constructor(options: SubpilotOptions = {}) {
    const apiKey = options.apiKey ?? environmentKey();
    if (!apiKey) throw new TypeError('No API key: pass apiKey, or set SUBPILOT_API_KEY in the environment.');
    if (!/^[\x21-\x7e]+$/.test(apiKey)) throw new TypeError('The API key holds characters no key has (a space, a line break?): copy it again.');
    this.#shownKey = shownKey(apiKey);
    this.#transport = new Transport({
      apiKey,
      baseUrl: options.baseUrl ?? 'http://127.0.0.1:8080',
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      maxRetries: options.maxRetries ?? 3,
      maxRetryWaitMs: options.maxRetryWaitMs ?? 60_000,
      timeoutMs: options.timeoutMs ?? 60_000,
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
    });
  }

  /** The status, cost headers and `Idempotency-Key` of the answer that gave `result`. */
  responseOf(result: object): ResponseMeta | undefined {
    return this.#meta.get(result);
  }

  toJSON() {
    return { baseUrl: this.#transport.baseUrl, apiKey: this.#shownKey };
  }

  [inspect]() {
    return `Subpilot ${JSON.stringify(this.toJSON())}`;
  }

  async #call<K extends OperationId>(operation: K, input: CallInput = {}): Promise<Answer<K>> {
    const { body, meta } = await this.#transport.call(operation, input);
    this.lastResponse = meta;
    if (body !== null && typeof body === 'object') this.#meta.set(body, meta);
    return body as Answer<K>;
  }

  // Credits and usage
  getBalance = (o?: CallOptions) => this.#call('getBalance', { ...o });
  listUsage = (query?: Query<'listUsage'>, o?: CallOptions) => this.#call('listUsage', { query, ...o });
  getDailyUsage = (query?: Query<'getDailyUsage'>, o?: CallOptions) => this.#call('getDailyUsage', { query, ...o });
  listCreditPacks = (o?: CallOptions) => this.#call('listCreditPacks', { ...o });
  createCheckout = (body: Body<'createCheckout'>, o?: CallOptions) => this.#call('createCheckout', { body, ...o });
  getPayment = (id: string, o?: CallOptions) => this.#call('getPayment', { path: { id }, ...o });

  // Scrapes
  /** `prefer: 'respond-async'` answers 202 at once (the scrape `queued`); poll `getScrape` or take the webhook. */
  createScrape = (body: Body<'createScrape'>, o?: KeyedOptions & { prefer?: 'respond-async' }) =>
    this.#call('createScrape', { body, ...o, headers: o?.prefer ? { prefer: o.prefer } : {} });
  getScrape = (id: string, o?: CallOptions) => this.#call('getScrape', { path: { id }, ...o });
  listScrapes = (query?: Query<'listScrapes'>, o?: CallOptions) => this.#call('listScrapes', { query, ...o });

  // Drafts and publications
  createGeneration = (body: Body<'createGeneration'>, o?: KeyedOptions) => this.#call('createGeneration', { body, ...o });
  getGeneration = (id: string, o?: CallOptions) => this.#call('getGeneration', { path: { id }, ...o });
  updateGeneration = (id: string, body: Body<'updateGeneration'>, o?: CallOptions) => this.#call('updateGeneration', { path: { id }, body, ...o });
  /** Publishes on Reddit as the connected user: always this explicit call, charged only when Reddit accepted it. */
  createPublication = (body: Body<'createPublication'>, o?: KeyedOptions) => this.#call('createPublication', { body, ...o });
  getPublication = (id: string, o?: CallOptions) => this.#call('getPublication', { path: { id }, ...o });

  // Monitors and their matches
  createMonitor = (body: Body<'createMonitor'>, o?: KeyedOptions) => this.#call('createMonitor', { body, ...o });
  listMonitors = (query?: Query<'listMonitors'>, o?: CallOptions) => this.#call('listMonitors', { query, ...o });
  getMonitor = (id: string, o?: CallOptions) => this.#call('getMonitor', { path: { id }, ...o });
  updateMonitor = (id: string, body: Body<'updateMonitor'>, o?: CallOptions) => this.#call('updateMonitor', { path: { id }, body, ...o });
  deleteMonitor = (id: string, o?: CallOptions) => this.#call('deleteMonitor', { path: { id }, ...o });
  listMonitorMatches = (id: string, query?: Query<'listMonitorMatches'>, o?: CallOptions) =>
    this.#call('listMonitorMatches', { path: { id }, query, ...o });

  /** What the site-wide stream read of all of Reddit, per hour and kind: the same for every account. */
  getStreamCoverage = (query?: Query<'getStreamCoverage'>, o?: CallOptions) => this.#call('getStreamCoverage', { query, ...o });

  // The inbox
  listInbox = (query?: Query<'listInbox'>, o?: CallOptions) => this.#call('listInbox', { query, ...o });
  getMatch = (id: string, o?: CallOptions) => this.#call('getMatch', { path: { id }, ...o });
  updateMatch = (id: string, body: Body<'updateMatch'>, o?: CallOptions) => this.#call('updateMatch', { path: { id }, body, ...o });

  // Destinations (Slack, Discord, …) and the monitors routed to them
  createDestination = (body: Body<'createDestination'>, o?: CallOptions) => this.#call('createDestination', { body, ...o });
  listDestinations = (o?: CallOptions) => this.#call('listDestinations', { ...o });
  getDestination = (id: string, o?: CallOptions) => this.#call('getDestination', { path: { id }, ...o });
  updateDestination = (id: string, body: Body<'updateDestination'>, o?: CallOptions) =>
    this.#call('updateDestination', { path: { id }, body, ...o });
  deleteDestination = (id: string, o?: CallOptions) => this.#call('deleteDestination', { path: { id }, ...o });
  testDestination = (id: string, body: Body<'testDestination'> = {}, o?: CallOptions) =>
    this.#call('testDestination', { path: { id }, body, ...o });
  listDestinationDeliveries = (id: string, o?: CallOptions) => this.#call('listDestinationDeliveries', { path: { id }, ...o });
  listMonitorRoutes = (id: string, o?: CallOptions) => this.#call('listMonitorRoutes', { path: { id }, ...o });
  routeMonitor = (id: string, destinationId: string, body: Body<'routeMonitor'>, o?: CallOptions) =>
    this.#call('routeMonitor', { path: { id, destination_id: destinationId }, body, ...o });
  unrouteMonitor = (id: string, destinationId: string, o?: CallOptions) =>
    this.#call('unrouteMonitor', { path: { id, destination_id: destinationId }, ...o });

  // Every item of a paged list, page after page (`list…` → `iterate…`)
  iterateUsage = (query?: Query<'listUsage'>, o?: CallOptions) => this.#pages('listUsage', {}, query, o);
  iterateScrapes = (query?: Query<'listScrapes'>, o?: CallOptions) => this.#pages('listScrapes', {}, query, o);
  iterateMonitors = (query?: Query<'listMonitors'>, o?: CallOptions) => this.#pages('listMonitors', {}, query, o);
  iterateInbox = (query?: Query<'listInbox'>, o?: CallOptions) => this.#pages('listInbox', {}, query, o);
  /** A monitor's matches, newest first. */
  iterateMonitorMatches = (id: string, query?: Omit<Query<'listMonitorMatches'>, 'after'>, o?: CallOptions) =>
    this.#pages('listMonitorMatches', { id }, query, o);

  /**
   * Everything the monitor stored after match `after`, oldest first, in storage order, until it is up
   * to date: keep the id of the last match handled and pass it next time, and no match is missed or
   * seen twice (docs/api/monitors.md, "Reading matches incrementally").
   */
  async *iterateMonitorMatchesAfter(id: string, after: string, query?: Pick<Query<'listMonitorMatches'>, 'limit' | 'include'>, o?: CallOptions) {
    for (let last = after; ; ) {
      const page = await this.#call('listMonitorMatches', { path: { id }, query: { ...query, after: last }, ...o });
      yield* page.data;
      const newest = page.data.at(-1);
      if (!page.has_more || newest === undefined) return;
      last = newest.id;
    }
  }

  async *#pages<K extends PagedOperationId>(operation: K, path: Record<string, string>, query: object = {}, o?: CallOptions): AsyncGenerator<Item<K>> {
    for (let cursor = (query as { cursor?: string }).cursor; ; ) {
      const page = (await this.#call(operation, { path, query: { ...query, cursor }, ...o })) as { data: Item<K>[]; has_more: boolean; next_cursor: string | null };
      yield* page.data;
      if (!page.has_more || !page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }
}
