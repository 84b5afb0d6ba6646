/**
 * A fake Reddit on 127.0.0.1 (ephemeral port) speaking Reddit's wire format, for the Reddit client's
 * tests and the service's integration tests. Use `url` as both the API and the auth base URL.
 *
 * Endpoints
 * - `POST /api/v1/access_token`: HTTP Basic `clientId:clientSecret` and form body
 *   `grant_type=client_credentials` → `{ access_token, token_type: "bearer", expires_in: 86400, scope: "*" }`.
 *   Wrong credentials → 401 `{"message":"Unauthorized","error":401}`; other grant → 400
 *   `{"error":"unsupported_grant_type"}`.
 * - `GET /r/{a+b+...}/search`: needs `Authorization: bearer <issued token>` (else 401). As Reddit's
 *   router does (r2 `set_subreddit`): a single name that is unavailable answers for itself (missing →
 *   302 to /subreddits/search.json?q=name, private → 403 `{"reason":"private"}`, quarantined → 403
 *   `{"reason":"quarantined"}`, banned → 404 `{"reason":"banned"}`, forbidden → a bare 403
 *   `{"message":"Forbidden","error":403}`). A combined path silently drops missing names; if one name
 *   is left it answers as that single subreddit, if none 404, otherwise it searches the public ones and
 *   drops private, banned and quarantined ones just as silently (their posts are not viewable). Matches
 *   posts whose title or selftext contains any " OR "-separated term (case-insensitive; a quoted term is
 *   a phrase, an unquoted multi-word term needs all its words); with `restrict_sr=1` only the path's
 *   subreddits, otherwise every subreddit (as Reddit does). NSFW posts only with `include_over_18=on`.
 *   sort=new → created_utc desc; top and relevance → score desc, then created_utc desc. `t` is recorded
 *   but NOT applied (tests use fixed timestamps). Pages with `limit` (default 25, max 100) and `after`.
 * - `GET /r/{a+b+...}/new` and `/r/{a+b+...}/comments`: the subreddits' newest posts (t3) or comments (t1),
 *   refusing and dropping unavailable names exactly as search does; paging, order and depth in
 *   fake-reddit-streams.ts. `addPost`/`addComment` create items with ids from one increasing base-36
 *   sequence (as Reddit's), created now by `clock` unless given.
 * - `GET /r/{name}/about`: a t5 thing for public subreddits, otherwise the same error answers as search.
 * - `GET /api/info?id=t3_…,t1_…`: a Listing of the posts (t3) and comments (t1) it knows, unknown ids left out;
 *   a comment there has no `link_title` (a reply draft reads its post by `link_id` for the title). At most
 *   the first 100 ids asked are answered. With `firehose` set, its items too, and `/r/all/new` and
 *   `/r/all/comments` list its newest, and subreddit listings its items (fake-reddit-firehose.ts).
 * - `GET /api/info?sr_name=a,b,c` and `blockApp(...)`: see fake-reddit-subreddits.ts.
 * - A request without a User-Agent (or with undici's default "node"/"undici") gets 429, as Reddit
 *   answers clients that do not identify themselves.
 * Every API answer (not the token endpoint) carries X-Ratelimit-Remaining/-Used/-Reset: fixed figures
 * (`rateLimit`), or with `limitPerMinute` set a real per-minute window on `clock` that answers 429 (with
 * Retry-After) to every call beyond the limit.
 * `requests` logs every call received, token calls included; `tokenRequests` counts the token calls.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeRedditUser, type FakeRedditUser } from './fake-reddit-user.ts';
import { searchListing } from './fake-reddit-listings.ts';
import { createRateWindow, createStreamWriters, infoChildren, createSubredditIndex, streamListing } from './fake-reddit-streams.ts';
import type { FakeComment, NewComment, NewPost } from './fake-reddit-streams.ts';
import { INFO_MAX_IDS, type FakeFirehose } from './fake-reddit-firehose.ts';
import { refusal, sendBlockPage, subredditInfos } from './fake-reddit-subreddits.ts';

export type { FakeComment, NewComment, NewPost } from './fake-reddit-streams.ts';

export interface FakePost {
  /** Without "t3_". */
  id: string;
  subreddit: string;
  title: string;
  selftext?: string;
  author?: string;
  created_utc: number;
  score?: number;
  num_comments?: number;
  over_18?: boolean;
  /** Link target; defaults to the post's own permalink (a self post). */
  url?: string;
  /** Its link flair text; a post without one has `"link_flair_text": null`, as a recorded `/r/golang/new.json` listing shows. */
  flair?: string;
  /** Fields sent as given, over the generated ones (what Reddit might send: a relative url, a bad date). */
  raw?: Record<string, unknown>;
}

/** `forbidden`: refused without a reason, as on record for a quarantined subreddit (a bare 403). */
export type FakeSubredditState = 'public' | 'private' | 'banned' | 'quarantined' | 'gated' | 'forbidden';

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
}

export interface FakeReddit {
  url: string;
  clientId: string;
  clientSecret: string;
  posts: FakePost[];
  comments: FakeComment[];
  /** A post with the next id, appended to `posts`. */
  addPost(input: NewPost): FakePost;
  /** A comment with the next id (under the subreddit's newest post unless told), appended to `comments`. */
  addComment(input: NewComment): FakeComment;
  /** The fake's time in ms (items' default created_utc, the rate window); default Date.now. */
  clock: () => number;
  /** Calls allowed per clock minute, beyond which Reddit answers 429; null: off (fixed `rateLimit` headers). */
  limitPerMinute: number | null;
  /** Lower-case name → state. Names absent here but used by a post or comment are public; all others are missing. */
  subreddits: Map<string, FakeSubredditState>;
  /** Lower-case names of subreddits marked over 18. */
  nsfwSubreddits: Set<string>;
  /** Answers as Reddit does to an app it blocks ('html') or whose credentials it refuses (401/403); null: off. */
  blockApp(mode: 'html' | 401 | 403 | null): void;
  /** The next `count` (default 1) API calls (not token calls) answer `status` with these headers. */
  failNext(status: number, count?: number, headers?: Record<string, string>): void;
  /** Every API call answers `status`; null turns it off. */
  failAlways(status: number | null): void;
  /** Each API call for which this returns a status answers it (the 2nd `/api/info` on, say); null: served. */
  failWhen: ((path: string, query: URLSearchParams) => number | null) | null;
  /** The next `count` (default 1) token calls answer `status`. */
  failTokenNext(status: number, count?: number): void;
  /** Forgets every issued token, so the next API call answers 401. */
  revokeTokens(): void;
  /** Artificial delay before answering each API call, in ms. */
  delayMs: number;
  /** Rate-limit header values to send while `limitPerMinute` is null; null sends 600 remaining / 600 s reset. */
  rateLimit: { remaining: number; reset: number } | null;
  requests: FakeRequest[];
  tokenRequests: number;
  /** Children appended as they are to every search listing page (malformed ones, say). */
  extraChildren: unknown[];
  /** Every post and comment made site-wide, for the stream reader (fake-reddit-firehose.ts); null: off. */
  firehose: FakeFirehose | null;
  /** The user-context endpoints (authorization code, refresh, me, comment, submit): see fake-reddit-user.ts. */
  user: FakeRedditUser;
  close(): Promise<void>;
}

const CLIENT_ID = 'fake-client-id';
const CLIENT_SECRET = 'fake-client-secret';
const BLOCKED_AGENTS = new Set(['', 'node', 'undici']);

type Json = Record<string, unknown>;

export async function startFakeReddit(): Promise<FakeReddit> {
  const tokens = new Set<string>();
  const failures: { status: number; headers: Record<string, string> }[] = [];
  const tokenFailures: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let failAlwaysStatus: number | null = null;
  let blocked: 'html' | 401 | 403 | null = null;
  let issued = 0;

  const fake: FakeReddit = {
    url: '',
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    posts: [],
    comments: [],
    addPost: (input) => writers.addPost(input),
    addComment: (input) => writers.addComment(input),
    clock: () => Date.now(),
    limitPerMinute: null,
    subreddits: new Map(),
    nsfwSubreddits: new Set(),
    blockApp: (mode) => void (blocked = mode),
    failNext(status, count = 1, headers = {}) {
      for (let i = 0; i < count; i++) failures.push({ status, headers });
    },
    failAlways: (status) => void (failAlwaysStatus = status),
    failWhen: null,
    failTokenNext(status, count = 1) {
      for (let i = 0; i < count; i++) tokenFailures.push(status);
    },
    revokeTokens: () => tokens.clear(),
    delayMs: 0,
    rateLimit: null,
    requests: [],
    tokenRequests: 0,
    extraChildren: [],
    firehose: null,
    user: undefined as unknown as FakeRedditUser,
    close: () => close(),
  };
  const writers = createStreamWriters(fake);
  const meter = createRateWindow(fake);
  const hasItems = createSubredditIndex(fake);

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

  const stateOf = (name: string): FakeSubredditState | 'missing' => {
    const lower = name.toLowerCase();
    const state = fake.subreddits.get(lower);
    if (state) return state;
    return hasItems(lower) ? 'public' : 'missing';
  };

  const userSide = createFakeRedditUser({
    basicAuth: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
    subredditExists: (name) => stateOf(name) === 'public',
    send,
  });
  fake.user = userSide.user;

  function handleToken(req: IncomingMessage, res: ServerResponse, body: string) {
    fake.tokenRequests++;
    if (blocked === 401) return send(res, 401, { message: 'Unauthorized', error: 401 });
    if (blocked === 403) return send(res, 403, { message: 'Forbidden', error: 403 });
    const failure = tokenFailures.shift();
    if (failure !== undefined) return send(res, failure, { message: 'fake failure', error: failure });
    const expected = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return send(res, 401, { message: 'Unauthorized', error: 401 });
    if (userSide.grant(req, res, new URLSearchParams(body))) return;
    if (new URLSearchParams(body).get('grant_type') !== 'client_credentials') {
      return send(res, 400, { error: 'unsupported_grant_type' });
    }
    const token = `fake-token-${++issued}`;
    tokens.add(token);
    send(res, 200, { access_token: token, token_type: 'bearer', expires_in: 86400, scope: '*' });
  }

  function handleApi(req: IncomingMessage, res: ServerResponse, url: URL) {
    const { headers: rate, refused } = meter();
    if (refused) return send(res, 429, { message: 'Too Many Requests', error: 429 }, rate);
    const chosen = fake.failWhen?.(url.pathname, url.searchParams) ?? failAlwaysStatus;
    const failure = failures.shift() ?? (chosen === null ? undefined : { status: chosen, headers: {} });
    if (failure) return send(res, failure.status, { message: 'fake failure', error: failure.status }, { ...rate, ...failure.headers });
    if (BLOCKED_AGENTS.has((req.headers['user-agent'] ?? '').trim().toLowerCase())) {
      return send(res, 429, { message: 'Too Many Requests', error: 429 }, rate);
    }
    const [scheme, token] = (req.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token || !tokens.has(token)) {
      return send(res, 401, { message: 'Unauthorized', error: 401 }, { ...rate, 'www-authenticate': 'Bearer realm="reddit"' });
    }
    if (url.pathname === '/api/info' && url.searchParams.has('sr_name')) {
      const children = subredditInfos((url.searchParams.get('sr_name') ?? '').split(','), stateOf, about);
      return send(res, 200, { kind: 'Listing', data: { after: null, dist: children.length, children, before: null } }, rate);
    }
    const head = fake.firehose?.head(url.pathname, url.searchParams);
    if (head) return send(res, 200, head, rate);
    if (url.pathname === '/api/info') {
      const ids = (url.searchParams.get('id') ?? '').split(',').slice(0, INFO_MAX_IDS);
      const found = [...infoChildren(ids, fake.posts, fake.comments), ...(fake.firehose?.info(ids) ?? [])];
      return send(res, 200, { kind: 'Listing', data: { after: null, dist: found.length, children: found, before: null } }, rate);
    }
    const match = /^\/r\/([^/]+)\/(search|about|new|comments)(?:\.json)?\/?$/.exec(url.pathname);
    if (!match) return send(res, 404, { message: 'Not Found', error: 404 }, rate);
    const requested = decodeURIComponent(match[1]!).split('+').filter(Boolean);
    // A combined path keeps the names that exist; what is left of it decides how Reddit answers.
    const names = requested.length > 1 ? requested.filter((name) => stateOf(name) !== 'missing') : requested;
    if (names.length === 0) return send(res, 404, { message: 'Not Found', error: 404 }, rate);
    if (names.length === 1) {
      const refused = refusal(stateOf(names[0]!), names[0]!, fake.url);
      if (refused) return send(res, refused[0], refused[1], { ...rate, ...refused[2] });
    }
    if (match[2] === 'about') return send(res, 200, about(names[0]!), rate);
    const readable = names.filter((name) => stateOf(name) === 'public');
    if (match[2] === 'search') return send(res, 200, searchListing(fake.posts, fake.extraChildren, readable, url.searchParams), rate);
    const lower = new Set(readable.map((name) => name.toLowerCase()));
    const listing = match[2] === 'new' ? streamListing([...fake.posts, ...((fake.firehose?.listed('t3') ?? []) as FakePost[])], 't3', lower, url.searchParams) : streamListing([...fake.comments, ...((fake.firehose?.listed('t1') ?? []) as FakeComment[])], 't1', lower, url.searchParams);
    send(res, 200, listing, rate);
  }

  function about(name: string): Json {
    const post = fake.posts.find((p) => p.subreddit.toLowerCase() === name.toLowerCase());
    const display = post?.subreddit ?? name;
    const data = { display_name: display, display_name_prefixed: `r/${display}`, subreddit_type: 'public', name: `t5_${display.toLowerCase()}` };
    return { kind: 't5', data: { ...data, over18: fake.nsfwSubreddits.has(name.toLowerCase()), quarantine: false, subscribers: 1000, public_traffic: false } };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake.invalid');
      fake.requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: { ...req.headers } as Record<string, string | undefined>,
      });
      if (blocked === 'html') return sendBlockPage(res);
      if (req.method === 'POST' && url.pathname === '/api/v1/access_token') {
        return handleToken(req, res, Buffer.concat(chunks).toString('utf8'));
      }
      if (userSide.handles(url.pathname)) return userSide.handle(req, res, url.pathname, Buffer.concat(chunks).toString('utf8'));
      if (req.method !== 'GET') return send(res, 405, { message: 'Method Not Allowed', error: 405 });
      if (fake.delayMs <= 0) return handleApi(req, res, url);
      const timer = setTimeout(() => {
        timers.delete(timer);
        handleApi(req, res, url);
      }, fake.delayMs);
      timers.add(timer);
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function close(): Promise<void> {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    return new Promise((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  }

  return fake;
}
