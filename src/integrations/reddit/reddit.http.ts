/**
 * Reddit's HTTP layer: app-only OAuth token (cached, shared while in flight), per-call timeouts,
 * bounded retries with backoff, and respect for Reddit's X-Ratelimit-* headers.
 * Never logs, and never puts the client secret or an access token into an error message.
 */

/** Reddit could not be reached or kept failing: 5xx, timeouts, network errors, 429 after retries. */
export class RedditUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = 'RedditUnavailableError';
  }
}

/**
 * Reddit refuses this app itself, not one subreddit: its token endpoint answers 401/403 (credentials
 * refused, app not approved), or an API call answers 403 with a page that is not JSON (since 2026 the
 * "You've been blocked by network security" page, `Server: snooserv`). Retrying will not help; the
 * operator must act. A subclass, so callers that only know "unavailable" still fail safe.
 */
export class RedditBlockedError extends RedditUnavailableError {
  constructor(message: string, upstreamStatus: number) {
    super(message, undefined, upstreamStatus);
    this.name = 'RedditBlockedError';
  }
}

/** A 403 whose body is not Reddit's JSON: the block page, not a subreddit's refusal. */
const isBlockPage = (answer: { status: number; text: string }) => answer.status === 403 && parseJson(answer.text) === null;

export interface RedditHttpOptions {
  clientId: string;
  clientSecret: string;
  userAgent: string;
  apiUrl: string;
  authUrl: string;
  timeoutMs: number;
  maxRetries: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** The shared request budget (reddit.budget.ts): every API call takes a slot for its consumer first. */
  budget?: { take(consumer: string): Promise<void> };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null when the body is empty or not JSON. */
  body: unknown;
}

export interface RedditHttp {
  /**
   * GET `path` (relative to apiUrl, starting with "/"); redirects are returned, not followed.
   * `consumer`: the account the call is made for (default the system), for the shared budget.
   */
  get(path: string, consumer?: string): Promise<ApiResponse>;
}

const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** Waits longer than this (Retry-After, rate-limit reset) give up instead of holding the caller. */
const MAX_WAIT_MS = 30_000;
const TOKEN_REFRESH_MARGIN_MS = 60_000;
const DEFAULT_TOKEN_LIFETIME_S = 3_600;

export type Attempt =
  | { ok: true; status: number; headers: Headers; text: string }
  | { ok: false; timedOut: boolean; reason: string };

type Answer = Extract<Attempt, { ok: true }>;

export const backoffMs = (retry: number) => Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** retry);

/** One HTTP exchange, never repeated; redirects are returned, not followed. */
export async function sendOnce(url: string, init: RequestInit, timeoutMs: number): Promise<Attempt> {
  try {
    const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    return { ok: true, status: response.status, headers: response.headers, text };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    return { ok: false, timedOut: name === 'TimeoutError' || name === 'AbortError', reason: describe(error) };
  }
}

export function createRedditHttp(options: RedditHttpOptions): RedditHttp {
  let token: { value: string; expiresAt: number } | null = null;
  let pendingToken: Promise<string> | null = null;
  let rate: { remaining: number; resetAt: number } | null = null;

  const attempt = (url: string, init: RequestInit) => sendOnce(url, init, options.timeoutMs);

  /** Repeats `send` on network errors, timeouts, 429 and 5xx, up to maxRetries extra times. */
  async function withRetries(what: string, send: () => Promise<Attempt>): Promise<Answer> {
    for (let retry = 0; ; retry++) {
      const result = await send();
      let message: string;
      let waitMs: number;
      let hint: number | undefined;
      let status: number | undefined;
      if (!result.ok) {
        message = result.timedOut
          ? `${what} did not answer within ${options.timeoutMs} ms`
          : `Could not reach ${what} (${result.reason})`;
        waitMs = backoffMs(retry);
      } else if (result.status === 429 || result.status >= 500) {
        status = result.status;
        hint = retryAfterSeconds(result.headers, status);
        message = `${what} answered HTTP ${status}`;
        waitMs = status === 429 && hint !== undefined ? hint * 1000 : backoffMs(retry);
        if (waitMs > MAX_WAIT_MS) {
          throw new RedditUnavailableError(`${message} and asked to wait ${hint} s`, hint, status);
        }
      } else {
        return result;
      }
      if (retry >= options.maxRetries) {
        const attempts = retry + 1;
        throw new RedditUnavailableError(`${message} (${attempts} attempt${attempts === 1 ? '' : 's'})`, hint, status);
      }
      await options.sleep(waitMs);
    }
  }

  async function respectRateLimit(): Promise<void> {
    if (!rate) return;
    if (options.now() >= rate.resetAt) {
      rate = null;
      return;
    }
    if (rate.remaining >= 1) {
      rate.remaining -= 1; // reserve one call until the next response reports the real figure
      return;
    }
    const waitMs = rate.resetAt - options.now();
    if (waitMs > MAX_WAIT_MS) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new RedditUnavailableError(`Reddit's rate limit is used up for another ${seconds} s`, seconds, 429);
    }
    await options.sleep(waitMs);
    rate = null;
  }

  function noteRateLimit(headers: Headers): void {
    const remaining = Number.parseFloat(headers.get('x-ratelimit-remaining') ?? '');
    const reset = Number.parseFloat(headers.get('x-ratelimit-reset') ?? '');
    if (Number.isFinite(remaining) && Number.isFinite(reset)) {
      rate = { remaining, resetAt: options.now() + reset * 1000 };
    }
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const answer = await withRetries("Reddit's token endpoint", () =>
      attempt(`${options.authUrl}/api/v1/access_token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'user-agent': options.userAgent,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      }),
    );
    if (answer.status === 401 || answer.status === 403) {
      const why = isBlockPage(answer) ? 'answered with its "blocked" page' : 'rejected the configured client credentials';
      throw new RedditBlockedError(`Reddit's token endpoint ${why} (HTTP ${answer.status})`, answer.status);
    }
    if (answer.status !== 200) {
      throw new RedditUnavailableError(`Reddit's token endpoint answered HTTP ${answer.status}`, undefined, answer.status);
    }
    const body = parseJson(answer.text) as { access_token?: unknown; expires_in?: unknown; error?: unknown } | null;
    if (!body || typeof body.access_token !== 'string' || !body.access_token) {
      const code = typeof body?.error === 'string' && /^[\w.-]{1,64}$/.test(body.error) ? ` (${body.error})` : '';
      throw new RedditUnavailableError(`Reddit's token endpoint returned no access token${code}`, undefined, 200);
    }
    const lifetime =
      typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : DEFAULT_TOKEN_LIFETIME_S;
    token = { value: body.access_token, expiresAt: options.now() + lifetime * 1000 };
    return body.access_token;
  }

  function getToken(): Promise<string> {
    if (token && options.now() < token.expiresAt - TOKEN_REFRESH_MARGIN_MS) return Promise.resolve(token.value);
    pendingToken ??= fetchToken().finally(() => {
      pendingToken = null;
    });
    return pendingToken;
  }

  async function get(path: string, consumer = 'system'): Promise<ApiResponse> {
    for (let renewed = false; ; renewed = true) {
      let used = '';
      const answer = await withRetries('Reddit', async () => {
        await respectRateLimit();
        await options.budget?.take(consumer);
        used = await getToken();
        const result = await attempt(`${options.apiUrl}${path}`, {
          method: 'GET',
          headers: { authorization: `bearer ${used}`, 'user-agent': options.userAgent },
        });
        if (result.ok) noteRateLimit(result.headers);
        return result;
      });
      if (answer.status === 401) {
        if (token?.value === used) token = null;
        if (!renewed) continue;
        throw new RedditBlockedError('Reddit rejected a freshly issued access token (HTTP 401)', 401);
      }
      if (isBlockPage(answer)) throw new RedditBlockedError('Reddit answered HTTP 403 with its "blocked" page instead of JSON', 403);
      return { status: answer.status, headers: answer.headers, body: parseJson(answer.text) };
    }
  }

  return { get };
}

/** Seconds to wait from Retry-After (seconds or HTTP date), else X-Ratelimit-Reset on a 429. */
export function retryAfterSeconds(headers: Headers, status: number): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  if (status === 429) {
    const reset = Number.parseFloat(headers.get('x-ratelimit-reset') ?? '');
    if (Number.isFinite(reset) && reset >= 0) return Math.ceil(reset);
  }
  return undefined;
}

export function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function describe(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  return error instanceof Error && error.message ? error.message : 'network error';
}
