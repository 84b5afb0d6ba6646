import { SubpilotConnectionError, SubpilotError, type Problem } from './errors.js';
import { retryDelay, parseRetryAfter, type RetryPolicy } from './retry.js';
import { IDEMPOTENT_METHODS, KEYED, ROUTES, type OperationId } from './routes.js';

/** What the last answer said beyond its body: the cost headers, the key it was sent with, how many tries. */
export interface ResponseMeta {
  operation: OperationId;
  status: number;
  headers: Headers;
  /** `Credits-Charged`: what this call charged (null when it was not a paid call). */
  creditsCharged: number | null;
  /** `Credits-Balance`: the spendable balance after it. */
  creditsBalance: number | null;
  /** The `Idempotency-Key` sent on every attempt of this call (null for operations that take none). */
  idempotencyKey: string | null;
  /** `Idempotent-Replayed: true`: the answer of an earlier attempt with this key, charged once. */
  replayed: boolean;
  attempts: number;
}

export interface CallInput {
  path?: Record<string, string>;
  query?: object;
  body?: unknown;
  headers?: Record<string, string>;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface TransportOptions extends RetryPolicy {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
}

const number = (value: string | null) => (value === null || !/^-?\d+$/.test(value.trim()) ? null : Number(value));

function urlOf(baseUrl: string, template: string, path: Record<string, string> = {}, query: object = {}): string {
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = path[name];
    if (value === undefined) throw new TypeError(`${name} is required`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) search.set(name, String(value));
  const text = search.toString();
  return `${baseUrl.replace(/\/+$/, '')}${filled}${text ? `?${text}` : ''}`;
}

/** The problem of an error answer; an answer that is not problem+json (a proxy's page) gets a code of ours. */
async function errorOf(response: Response, idempotencyKey: string | null, attempts: number): Promise<SubpilotError> {
  const text = await response.text().catch(() => '');
  let problem: Problem | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { code?: unknown }).code === 'string') problem = parsed as Problem;
  } catch {
    // Not JSON: described below.
  }
  return new SubpilotError({
    status: response.status,
    problem,
    code: problem?.code ?? 'unexpected_response',
    detail: problem?.detail ?? `The server answered ${response.status} without a problem body: something in front of the API (a proxy?) answered.`,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    creditsRequired: number(response.headers.get('credits-required')),
    creditsBalance: number(response.headers.get('credits-balance')),
    idempotencyKey,
    attempts,
  });
}

/** A success's JSON; one that is not JSON came from something in front of the API. */
function parsed(text: string, status: number, idempotencyKey: string | null, attempts: number): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    const detail = `The server answered ${status} with a body that is not JSON: something in front of the API (a proxy?) answered.`;
    const fields = { retryAfterMs: null, creditsRequired: null, creditsBalance: null, idempotencyKey, attempts };
    throw new SubpilotError({ status, problem: null, code: 'unexpected_response', detail, ...fields });
  }
}

/** A signal that fires on the caller's abort or after `timeoutMs`, whichever comes first. */
function attemptSignal(timeoutMs: number, outer: AbortSignal | undefined) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  const onAbort = () => controller.abort(outer!.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/** The wait before a retry, cut short by the caller's abort. */
function pause(sleep: (ms: number) => Promise<void>, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return sleep(ms);
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      reject,
    );
  });
}

/** Sends calls: the key in its header, retries as `retryDelay` decides, one `Idempotency-Key` per call. */
export class Transport {
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  get baseUrl() {
    return this.#options.baseUrl;
  }

  async call(operation: OperationId, input: CallInput = {}): Promise<{ body: unknown; meta: ResponseMeta }> {
    const options = this.#options;
    const [method, template] = ROUTES[operation];
    const url = urlOf(options.baseUrl, template, input.path, input.query);
    const keyed = KEYED.has(operation);
    const idempotencyKey = keyed ? (input.idempotencyKey ?? globalThis.crypto.randomUUID()) : null;
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...input.headers, authorization: `Bearer ${options.apiKey}` };
    if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
    if (input.body !== undefined) headers['content-type'] = 'application/json';
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    const kind = { keyed, idempotent: IDEMPOTENT_METHODS.has(method) };

    for (let attempt = 1; ; attempt++) {
      input.signal?.throwIfAborted();
      const { signal, done } = attemptSignal(options.timeoutMs, input.signal);
      let failure: SubpilotError | SubpilotConnectionError;
      try {
        const response = await options.fetch(url, { method, headers, body, signal });
        if (response.ok) {
          const text = response.status === 204 ? '' : await response.text();
          return {
            body: parsed(text, response.status, idempotencyKey, attempt),
            meta: {
              operation,
              status: response.status,
              headers: response.headers,
              creditsCharged: number(response.headers.get('credits-charged')),
              creditsBalance: number(response.headers.get('credits-balance')),
              idempotencyKey,
              replayed: response.headers.get('idempotent-replayed') === 'true',
              attempts: attempt,
            },
          };
        }
        failure = await errorOf(response, idempotencyKey, attempt);
      } catch (error) {
        if (error instanceof SubpilotError) throw error;
        // The caller's own abort ends the call; anything else that left no answer is a connection failure.
        if (input.signal?.aborted) throw input.signal.reason;
        const reason = signal.aborted ? String((signal.reason as Error).message) : 'the connection failed or was cut before the answer';
        failure = new SubpilotConnectionError(`${method} ${template}: ${reason}`, { cause: error, idempotencyKey, attempts: attempt });
      } finally {
        done();
      }
      const wait = retryDelay(failure, attempt, kind, options);
      if (wait === null) throw failure;
      await pause(options.sleep, wait, input.signal);
    }
  }
}
