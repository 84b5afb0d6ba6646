/**
 * The user-context half of the fake Reddit (see fake-reddit.ts): the authorization-code and
 * refresh-token grants, `GET /api/v1/me`, `POST /api/comment` and `POST /api/submit`, the user's own
 * listings `GET /user/{name}/comments` and `/user/{name}/submitted` (newest first, `limit`, `after`), with Reddit's
 * answer shapes: `{"json": {"errors": [[CODE, message, field]]}}` on 200 for refusals, 401 for a
 * bad token, 403 for a forbidden place. `GET /api/v1/authorize` answers a bare page titled "Authorize application"
 * (for browser tests); `approve()` stands in for the person clicking "Allow" and returns the code Reddit would
 * append to the redirect.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FakeComment {
  id: string;
  thing_id: string;
  text: string;
  author: string;
}

export interface FakeSubmission {
  id: string;
  sr: string;
  title: string;
  text: string;
  author: string;
}

export interface FakeRedditUser {
  approve(username: string, redirectUri: string): string;
  /** Each refresh returns a new refresh token and retires the old one. */
  rotateRefreshTokens: boolean;
  /** `expires_in` of user access tokens. */
  accessTokenLifetime: number;
  /** Forgets every user access token (the next call answers 401), as after expiry. */
  expireAccessTokens(): void;
  /** Forgets every refresh token (the next refresh answers 400 invalid_grant), as after revocation. */
  revokeRefreshTokens(): void;
  /** Valid refresh token → username. */
  refreshTokens: Map<string, string>;
  grants: string[];
  comments: FakeComment[];
  submissions: FakeSubmission[];
  /** The next comment or submit answers `status` with `body` (JSON) instead of posting. */
  failNext(status: number, body?: unknown, headers?: Record<string, string>): void;
  /** The next comment or submit answers 200 `{"json": {"errors": [[code, message, field]]}}`. */
  rejectNext(code: string, message: string, field: string): void;
  /** Delay before answering comment and submit, in ms. */
  delayMs: number;
  /** The next `count` comments or submits are posted at once but never answered, as when the caller died. */
  postWithoutAnswer(count?: number): void;
  /** The next `count` comments or submits are neither posted nor answered. */
  hangWithoutPosting(count?: number): void;
  /** Ends the requests held by the two above (their callers see the connection close). */
  dropHeld(): void;
  /** The next `count` listing calls answer `status` (503, or 403 as for a token without the `history` scope). */
  failListingsNext(status: number, count?: number): void;
  /** Reddit's clock for `created_utc`, in seconds (tests pin it next to the app's). */
  now(): number;
}

type Send = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;

export function createFakeRedditUser(options: { basicAuth: string; subredditExists: (name: string) => boolean; send: Send }) {
  const { send } = options;
  const codes = new Map<string, { username: string; redirectUri: string }>();
  const accessTokens = new Map<string, string>();
  const failures: { status: number; body: unknown; headers: Record<string, string> }[] = [];
  const holds: ('post' | 'hang')[] = [];
  const held = new Set<ServerResponse>();
  const listingFailures: number[] = [];
  /** created_utc of each comment and submission, by id (kept off the records, which tests compare whole). */
  const created = new Map<string, number>();
  let serial = 0;

  const user: FakeRedditUser = {
    approve(username, redirectUri) {
      const code = `fake-code-${++serial}`;
      codes.set(code, { username, redirectUri });
      return code;
    },
    rotateRefreshTokens: false,
    accessTokenLifetime: 3600,
    expireAccessTokens: () => accessTokens.clear(),
    revokeRefreshTokens: () => user.refreshTokens.clear(),
    refreshTokens: new Map(),
    grants: [],
    comments: [],
    submissions: [],
    failNext(status, body = { message: 'fake failure', error: status }, headers = {}) {
      failures.push({ status, body, headers });
    },
    rejectNext(code, message, field) {
      failures.push({ status: 200, body: { json: { errors: [[code, message, field]] } }, headers: {} });
    },
    delayMs: 0,
    postWithoutAnswer(count = 1) {
      for (let i = 0; i < count; i++) holds.push('post');
    },
    hangWithoutPosting(count = 1) {
      for (let i = 0; i < count; i++) holds.push('hang');
    },
    dropHeld() {
      for (const res of held) res.destroy();
      held.clear();
    },
    failListingsNext(status, count = 1) {
      for (let i = 0; i < count; i++) listingFailures.push(status);
    },
    now: () => Math.floor(Date.now() / 1000),
  };

  const issue = (username: string, refreshToken: string | null) => {
    const accessToken = `fake-user-token-${++serial}`;
    accessTokens.set(accessToken, username);
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: user.accessTokenLifetime,
      scope: 'identity read submit history',
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    };
  };
  const newRefreshToken = (username: string) => {
    const token = `fake-refresh-${username}-${++serial}-${Math.random().toString(36).slice(2)}`;
    user.refreshTokens.set(token, username);
    return token;
  };

  /** The token endpoint's user grants; false when the grant is not one of them. */
  function grant(req: IncomingMessage, res: ServerResponse, params: URLSearchParams): boolean {
    const type = params.get('grant_type');
    if (type !== 'authorization_code' && type !== 'refresh_token') return false;
    user.grants.push(type);
    if (req.headers.authorization !== options.basicAuth) return send(res, 401, { message: 'Unauthorized', error: 401 }), true;
    if (type === 'authorization_code') {
      const pending = codes.get(params.get('code') ?? '');
      codes.delete(params.get('code') ?? '');
      if (!pending || pending.redirectUri !== params.get('redirect_uri')) return send(res, 400, { error: 'invalid_grant' }), true;
      send(res, 200, issue(pending.username, newRefreshToken(pending.username)));
      return true;
    }
    const old = params.get('refresh_token') ?? '';
    const username = user.refreshTokens.get(old);
    if (!username) return send(res, 400, { error: 'invalid_grant' }), true;
    if (!user.rotateRefreshTokens) return send(res, 200, issue(username, null)), true;
    user.refreshTokens.delete(old);
    send(res, 200, issue(username, newRefreshToken(username)));
    return true;
  }

  const LISTING = /^\/user\/([^/]+)\/(comments|submitted)$/;
  const handles = (path: string) => path === '/api/v1/authorize' || path === '/api/v1/me' || path === '/api/comment' || path === '/api/submit' || LISTING.test(path);

  function handle(req: IncomingMessage, res: ServerResponse, path: string, body: string) {
    // The page a browser lands on; the test's approve() stands in for its "Allow" button.
    if (path === '/api/v1/authorize') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Authorize application</title><h1>Authorize application</h1>');
    const [scheme, token] = (req.headers.authorization ?? '').split(' ');
    const username = scheme?.toLowerCase() === 'bearer' && token ? accessTokens.get(token) : undefined;
    if (!username) return send(res, 401, { message: 'Unauthorized', error: 401 }, { 'www-authenticate': 'Bearer realm="reddit"' });
    if (path === '/api/v1/me') return req.method === 'GET' ? send(res, 200, { name: username, id: `id_${username}` }) : send(res, 405, {});
    const listing = LISTING.exec(path);
    if (listing) return req.method === 'GET' ? list(res, decodeURIComponent(listing[1]!), listing[2]!, new URL(req.url ?? '/', 'http://fake.invalid').searchParams) : send(res, 405, {});
    if (req.method !== 'POST') return send(res, 405, { message: 'Method Not Allowed', error: 405 });
    const hold = holds.shift();
    if (hold) {
      held.add(res);
      if (hold === 'post') post({ writeHead: () => undefined, end: () => undefined } as unknown as ServerResponse, path, new URLSearchParams(body), username);
      return;
    }
    const answer = () => post(res, path, new URLSearchParams(body), username);
    if (user.delayMs > 0) setTimeout(answer, user.delayMs);
    else answer();
  }

  function post(res: ServerResponse, path: string, form: URLSearchParams, author: string) {
    const failure = failures.shift();
    if (failure) return send(res, failure.status, failure.body, failure.headers);
    const errors = (code: string, message: string, field: string) => send(res, 200, { json: { errors: [[code, message, field]] } });
    const text = form.get('text') ?? '';
    if (!text.trim()) return errors('NO_TEXT', 'we need something here', 'text');
    const id = (++serial).toString(36);
    if (path === '/api/comment') {
      if (text.length > 10_000) return errors('TOO_LONG', 'this is too long (max: 10000)', 'text');
      const thingId = form.get('thing_id') ?? '';
      user.comments.push({ id: `t1_${id}`, thing_id: thingId, text, author });
      created.set(`t1_${id}`, user.now());
      const permalink = `/r/fake/comments/${thingId.slice(3)}/_/${id}/`;
      return send(res, 200, { json: { errors: [], data: { things: [{ kind: 't1', data: { id, name: `t1_${id}`, body: text, permalink, parent_id: thingId } }] } } });
    }
    const sr = form.get('sr') ?? '';
    if (!options.subredditExists(sr)) return errors('SUBREDDIT_NOEXIST', "that subreddit doesn't exist", 'sr');
    user.submissions.push({ id: `t3_${id}`, sr, title: form.get('title') ?? '', text, author });
    created.set(`t3_${id}`, user.now());
    send(res, 200, { json: { errors: [], data: { url: `https://www.reddit.com/r/${sr}/comments/${id}/post/`, drafts_count: 0, id, name: `t3_${id}` } } });
  }

  /** A Listing of `author`'s things, newest first, as Reddit answers `/user/{name}/comments|submitted`. */
  function list(res: ServerResponse, author: string, where: string, query: URLSearchParams) {
    const failure = listingFailures.shift();
    if (failure) return send(res, failure, { message: failure === 403 ? 'Forbidden' : 'fake failure', error: failure });
    const things =
      where === 'comments'
        ? user.comments.filter((c) => c.author === author).map((c) => ({
            kind: 't1',
            data: {
              id: c.id.slice(3), name: c.id, author, body: c.text, parent_id: c.thing_id, link_id: c.thing_id.startsWith('t3_') ? c.thing_id : 't3_unknown',
              subreddit: 'fake', created_utc: created.get(c.id) ?? 0, permalink: `/r/fake/comments/${c.thing_id.slice(3)}/_/${c.id.slice(3)}/`,
            },
          }))
        : user.submissions.filter((s) => s.author === author).map((s) => ({
            kind: 't3',
            data: {
              id: s.id.slice(3), name: s.id, author, title: s.title, selftext: s.text, is_self: true, subreddit: s.sr,
              created_utc: created.get(s.id) ?? 0, permalink: `/r/${s.sr}/comments/${s.id.slice(3)}/post/`,
            },
          }));
    things.reverse();
    const limit = Math.min(Number(query.get('limit') ?? 25) || 25, 100);
    const after = query.get('after');
    const start = after ? things.findIndex((t) => t.data.name === after) + 1 : 0;
    const page = things.slice(start, start + limit);
    const next = start + limit < things.length ? page.at(-1)!.data.name : null;
    send(res, 200, { kind: 'Listing', data: { after: next, dist: page.length, modhash: null, geo_filter: '', children: page, before: null } });
  }

  return { user, grant, handles, handle };
}
