/**
 * Reddit's HTTP layer: app-only OAuth token (cached, shared while in flight), per-call timeouts, and
 * the retries and rate-limit waits of reddit.ratelimit.ts around every call.
 * Never logs, and never puts the client secret or an access token into an error message.
 */
import { SYSTEM_CONSUMER } from './reddit.budget.ts';
import { RedditBlockedError, RedditUnavailableError } from './reddit.errors.ts';
import { createRateLimitGate, withRetries } from './reddit.ratelimit.ts';
import type { Attempt } from './reddit.types.ts';

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

const TOKEN_REFRESH_MARGIN_MS = 60_000;
const DEFAULT_TOKEN_LIFETIME_S = 3_600;

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
  const rateLimit = createRateLimitGate(options);

  const attempt = (url: string, init: RequestInit) => sendOnce(url, init, options.timeoutMs);

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const answer = await withRetries(
      "Reddit's token endpoint",
      () =>
        attempt(`${options.authUrl}/api/v1/access_token`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${basic}`,
            'user-agent': options.userAgent,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials',
        }),
      options,
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

  async function get(path: string, consumer = SYSTEM_CONSUMER): Promise<ApiResponse> {
    for (let renewed = false; ; renewed = true) {
      let used = '';
      const answer = await withRetries(
        'Reddit',
        async () => {
          await rateLimit.beforeCall();
          await options.budget?.take(consumer);
          used = await getToken();
          const result = await attempt(`${options.apiUrl}${path}`, {
            method: 'GET',
            headers: { authorization: `bearer ${used}`, 'user-agent': options.userAgent },
          });
          if (result.ok) rateLimit.note(result.headers);
          return result;
        },
        options,
      );
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
