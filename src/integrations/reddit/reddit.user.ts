/**
 * Reddit on behalf of a person (OAuth authorization-code flow): exchange a code, refresh an access
 * token, read the identity, comment and submit, and read the user's own recent comments and posts
 * (to find out whether a post whose answer was lost went out). Stateless: the caller keeps tokens.
 * Calls that post are sent once and never retried, so a lost answer can never become a second post.
 */
import { redditPage } from './reddit.content.ts';
import { RedditUnavailableError } from './reddit.errors.ts';
import { parseJson, sendOnce } from './reddit.http.ts';
import { isRateLimitStatus, parseRatelimitWait, retryAfterSeconds } from './reddit.ratelimit.ts';
import type { Answer } from './reddit.types.ts';

/** `history` lets the service read the user's own comments and posts (`/user/{name}/comments`, `/submitted`). */
export const REDDIT_SCOPES = 'identity read submit history';

/** Calls one publish can make: a token refresh and the post, twice when Reddit refuses the first token. */
const CALLS_PER_PUBLISH = 4;

/** Reddit did not answer in time: it may or may not have acted. */
export class RedditTimeoutError extends RedditUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = 'RedditTimeoutError';
  }
}

/** Reddit refused a code or refresh token (revoked, expired, reused): the person must connect again. */
export class RedditGrantError extends Error {
  constructor(readonly reason: string) {
    super(`Reddit refused the authorization (${reason})`);
    this.name = 'RedditGrantError';
  }
}

export interface UserTokens {
  accessToken: string;
  expiresIn: number;
  /** Present on a code exchange, and on a refresh when Reddit rotates it. */
  refreshToken: string | null;
  scope: string;
}

/** One of the user's own comments (t1) or self posts (t3), as a listing describes it. */
export interface OwnThing {
  name: string;
  permalink: string;
  createdUtc: number;
  subreddit: string;
  /** A comment's parent (t3_ or t1_); null for a post. */
  parentId: string | null;
  /** A post's title; null for a comment. */
  title: string | null;
  /** A comment's body or a self post's text. */
  text: string;
}

export type ListingPage = { ok: true; things: OwnThing[]; after: string | null } | { ok: false; kind: 'unauthorized' };

export type PublishOutcome =
  | { ok: true; id: string; permalink: string }
  | { ok: false; kind: 'unauthorized' }
  | { ok: false; kind: 'forbidden'; message: string }
  | { ok: false; kind: 'rejected'; code: string; message: string; field: string | null }
  | { ok: false; kind: 'rate_limited'; retryAfterSeconds: number | undefined; message: string };

export interface RedditUserOptions {
  clientId: string;
  clientSecret: string;
  userAgent: string;
  apiUrl: string;
  authUrl: string;
  redirectUri: string;
  timeoutMs?: number;
  /** ms clock for reading Retry-After dates, injectable (default Date.now). */
  now?: () => number;
}

export type RedditUserClient = ReturnType<typeof createRedditUserClient>;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function createRedditUserClient(options: RedditUserOptions) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;

  async function call(what: string, url: string, init: RequestInit): Promise<Answer> {
    const headers = { 'user-agent': options.userAgent, ...(init.headers as Record<string, string>) };
    const result = await sendOnce(url, { ...init, headers }, timeoutMs);
    if (!result.ok) {
      if (result.timedOut) throw new RedditTimeoutError(`${what} did not answer within ${timeoutMs} ms`);
      throw new RedditUnavailableError(`Could not reach ${what} (${result.reason})`);
    }
    if (result.status >= 500) {
      throw new RedditUnavailableError(`${what} answered HTTP ${result.status}`, retryAfterSeconds(result.headers, result.status, now()), result.status);
    }
    return result;
  }

  async function token(form: Record<string, string>): Promise<UserTokens> {
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const answer = await call("Reddit's token endpoint", `${options.authUrl}/api/v1/access_token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    const body = parseJson(answer.text);
    const error = isObject(body) && typeof body.error === 'string' ? body.error : null;
    if (answer.status === 400 || error === 'invalid_grant') throw new RedditGrantError(error ?? `HTTP ${answer.status}`);
    if (answer.status !== 200 || !isObject(body) || typeof body.access_token !== 'string') {
      throw new RedditUnavailableError(`Reddit's token endpoint answered HTTP ${answer.status} without a token`, undefined, answer.status);
    }
    return {
      accessToken: body.access_token,
      expiresIn: typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600,
      refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : null,
      scope: typeof body.scope === 'string' ? body.scope : '',
    };
  }

  async function post(path: string, accessToken: string, form: Record<string, string>): Promise<Answer> {
    return call('Reddit', `${options.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `bearer ${accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form, api_type: 'json', raw_json: '1' }).toString(),
    });
  }

  return {
    /** The longest one publish can take: each call it may make, at its full timeout (calls that post are never retried). */
    publishBudgetMs: () => CALLS_PER_PUBLISH * timeoutMs,

    authorizeUrl(state: string): string {
      const query = new URLSearchParams({
        client_id: options.clientId,
        response_type: 'code',
        state,
        redirect_uri: options.redirectUri,
        duration: 'permanent',
        scope: REDDIT_SCOPES,
      });
      return `${options.authUrl}/api/v1/authorize?${query}`;
    },

    exchangeCode: (code: string) => token({ grant_type: 'authorization_code', code, redirect_uri: options.redirectUri }),
    refresh: (refreshToken: string) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),

    async me(accessToken: string): Promise<{ ok: true; name: string } | { ok: false; kind: 'unauthorized' }> {
      const answer = await call('Reddit', `${options.apiUrl}/api/v1/me`, { headers: { authorization: `bearer ${accessToken}` } });
      if (answer.status === 401) return { ok: false, kind: 'unauthorized' };
      const body = parseJson(answer.text);
      if (answer.status !== 200 || !isObject(body) || typeof body.name !== 'string') {
        throw new RedditUnavailableError(`Reddit answered /api/v1/me with HTTP ${answer.status}`, undefined, answer.status);
      }
      return { ok: true, name: body.name };
    },

    /**
     * A page of the user's newest comments or submissions (`GET /user/{name}/comments|submitted`,
     * scope `history`). Anything but a listing (403 without the scope, 404 for a gone user, 5xx)
     * is a RedditUnavailableError: the question could not be answered, which is not "no".
     */
    async recent(accessToken: string, input: { username: string; where: 'comments' | 'submitted'; after?: string | null }): Promise<ListingPage> {
      const query = new URLSearchParams({ sort: 'new', limit: '100', raw_json: '1', ...(input.after ? { after: input.after } : {}) });
      const path = `/user/${encodeURIComponent(input.username)}/${input.where}?${query}`;
      const answer = await call('Reddit', `${options.apiUrl}${path}`, { headers: { authorization: `bearer ${accessToken}` } });
      if (answer.status === 401) return { ok: false, kind: 'unauthorized' };
      const body = parseJson(answer.text);
      const data = answer.status === 200 && isObject(body) && isObject(body.data) && Array.isArray(body.data.children) ? body.data : null;
      if (!data) throw new RedditUnavailableError(`Reddit answered /user/…/${input.where} with HTTP ${answer.status}`, undefined, answer.status);
      const things = (data.children as unknown[]).flatMap((child) => {
        const thing = isObject(child) && isObject(child.data) ? toOwnThing(child.data) : null;
        return thing ? [thing] : [];
      });
      return { ok: true, things, after: typeof data.after === 'string' && data.after ? data.after : null };
    },

    async comment(accessToken: string, input: { parent: string; text: string }): Promise<PublishOutcome> {
      const answer = await post('/api/comment', accessToken, { thing_id: input.parent, text: input.text });
      return toOutcome(answer, now(), (data) => {
        const thing = Array.isArray(data.things) && isObject(data.things[0]) && isObject(data.things[0].data) ? data.things[0].data : null;
        return thing && typeof thing.name === 'string' ? { id: thing.name, permalink: absolute(thing.permalink) } : null;
      });
    },

    async submit(accessToken: string, input: { subreddit: string; title: string; text: string }): Promise<PublishOutcome> {
      const form = { sr: input.subreddit, kind: 'self', title: input.title, text: input.text, resubmit: 'true' };
      const answer = await post('/api/submit', accessToken, form);
      return toOutcome(answer, now(), (data) => {
        const id = typeof data.name === 'string' ? data.name : typeof data.id === 'string' ? `t3_${data.id}` : null;
        return id ? { id, permalink: absolute(data.url) } : null;
      });
    },
  };
}

function toOwnThing(data: Json): OwnThing | null {
  if (typeof data.name !== 'string' || typeof data.created_utc !== 'number') return null;
  const isComment = data.name.startsWith('t1_');
  const text = isComment ? data.body : data.selftext;
  return {
    name: data.name,
    permalink: absolute(data.permalink),
    createdUtc: data.created_utc,
    subreddit: typeof data.subreddit === 'string' ? data.subreddit : '',
    parentId: isComment && typeof data.parent_id === 'string' ? data.parent_id : null,
    title: !isComment && typeof data.title === 'string' ? data.title : null,
    text: typeof text === 'string' ? text : '',
  };
}

/** Reddit's link to what was posted, held to www.reddit.com like every permalink (reddit.content.ts). */
const absolute = (link: unknown) => redditPage(link) ?? '';

/**
 * Reddit answers refusals both as HTTP statuses and as `json.errors: [[CODE, message, field]]` with 200.
 * `nowMs`: when the answer came, to read a Retry-After date.
 */
function toOutcome(answer: Answer, nowMs: number, success: (data: Json) => { id: string; permalink: string } | null): PublishOutcome {
  const body = parseJson(answer.text);
  if (answer.status === 401) return { ok: false, kind: 'unauthorized' };
  if (answer.status === 403) {
    const reason = isObject(body) && typeof body.reason === 'string' ? body.reason : 'forbidden';
    return { ok: false, kind: 'forbidden', message: reason };
  }
  if (isRateLimitStatus(answer.status)) {
    return { ok: false, kind: 'rate_limited', retryAfterSeconds: retryAfterSeconds(answer.headers, answer.status, nowMs), message: 'Too Many Requests' };
  }
  const json = isObject(body) && isObject(body.json) ? body.json : null;
  const errors = json && Array.isArray(json.errors) ? json.errors : [];
  const first = errors.find(Array.isArray) as unknown[] | undefined;
  if (first) {
    const [code, message, field] = first.map((part) => (typeof part === 'string' ? part : null));
    if (code === 'RATELIMIT') {
      return { ok: false, kind: 'rate_limited', retryAfterSeconds: parseRatelimitWait(message ?? ''), message: message ?? code };
    }
    return { ok: false, kind: 'rejected', code: code ?? 'UNKNOWN', message: message ?? '', field: field ?? null };
  }
  if (answer.status === 404) return { ok: false, kind: 'rejected', code: 'NOT_FOUND', message: 'Reddit does not know the target', field: null };
  const done = answer.status === 200 && json && isObject(json.data) ? success(json.data) : null;
  if (!done) throw new RedditUnavailableError(`Reddit answered HTTP ${answer.status} without the new thing`, undefined, answer.status);
  return { ok: true, ...done };
}
