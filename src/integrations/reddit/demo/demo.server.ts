/**
 * The demo source (REDDIT_SOURCE=demo): a small HTTP server on 127.0.0.1 (a port the system picks)
 * speaking Reddit's wire format, which the composition root starts and points the service's own Reddit
 * clients at, as it would point them at Reddit. The service's code sees only a base URL, so scrape,
 * monitors, drafts and publishing run the paths they run against Reddit. Nothing here reaches Reddit.
 *
 * - App side: `POST /api/v1/access_token` (any client credentials), `/r/{a+b}/search|new|comments|about`,
 *   `/api/info?id=` and `?sr_name=`: the content of demo.content.ts at the clock's time.
 * - User side: `/api/v1/authorize` (a page saying what it is, whose link approves at once), the code and
 *   refresh grants, `/api/v1/me` (u/demo_you), `POST /api/comment` and `/api/submit` (simulated: kept
 *   in this process only, with demo ids), `/user/{name}/comments|submitted`.
 * - `POST /v1/chat/completions`: the demo model (demo.model.ts), for a service without LLM_BASE_URL.
 * Tokens are not checked against an issued list: the demo holds nothing worth protecting, and any
 * process or restart must accept the tokens of another (a connection's sealed refresh token, say).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoId } from '../../../shared/demo.ts';
import { aboutThing, demoThings, listingPage, searchPosts, type DemoThing } from './demo.content.ts';
import { demoCompletion } from './demo.model.ts';

export interface DemoReddit {
  /** The base URL of both the API and the auth side, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/** The one Reddit user the demo's connections act as. */
export const DEMO_USERNAME = 'demo_you';
/** Simulated publications kept for the user's own listings (the publishing rails read them). */
const MAX_KEPT = 1000;
const RATE_HEADERS = { 'x-ratelimit-remaining': '600.0', 'x-ratelimit-used': '0', 'x-ratelimit-reset': '600' };

type Json = Record<string, unknown>;

export async function startDemoReddit(options: { clock: () => Date; trickleSeconds: number }): Promise<DemoReddit> {
  const published: { kind: 't1' | 't3'; data: Json }[] = [];
  let serial = 0;
  const now = () => Math.floor(options.clock().getTime() / 1000);
  // Above every trickled id (slot numbers) and unique across restarts: the clock's milliseconds and a counter.
  const nextId = () => demoId(options.clock().getTime() * 10 + (serial++ % 10));

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };

  function token(res: ServerResponse, form: URLSearchParams) {
    const grant = form.get('grant_type');
    if (grant === 'client_credentials') return send(res, 200, { access_token: `demo-app-${serial++}`, token_type: 'bearer', expires_in: 86400, scope: '*' });
    if (grant !== 'authorization_code' && grant !== 'refresh_token') return send(res, 400, { error: 'unsupported_grant_type' });
    const refresh = grant === 'authorization_code' ? { refresh_token: `demo-refresh-${serial++}` } : {};
    send(res, 200, { access_token: `demo-user-${serial++}`, token_type: 'bearer', expires_in: 3600, scope: 'identity read submit history', ...refresh });
  }

  /** The approval page: says it is the demo, and its one link goes back as Reddit's "Allow" would. */
  function authorize(res: ServerResponse, query: URLSearchParams) {
    const back = new URL(query.get('redirect_uri') ?? 'http://invalid.invalid/');
    back.searchParams.set('state', query.get('state') ?? '');
    back.searchParams.set('code', `demo-code-${serial++}`);
    const href = back.href.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" });
    res.end(
      `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo Reddit: not real Reddit</title>` +
        '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5}h1{font-size:1.5rem}</style>' +
        `<h1>Demo data — not real Reddit</h1><p>This approval page is subpilot's demo source. Nothing you publish through it reaches Reddit: ` +
        `it is simulated and answered here, as u/${DEMO_USERNAME}.</p><p><a href="${href}">Allow (simulated)</a></p></html>`,
    );
  }

  function publish(res: ServerResponse, path: string, form: URLSearchParams) {
    const text = form.get('text') ?? '';
    if (!text.trim()) return send(res, 200, { json: { errors: [['NO_TEXT', 'we need something here', 'text']] } });
    const id = nextId();
    const created_utc = now();
    if (path === '/api/comment') {
      const parent = form.get('thing_id') ?? '';
      // Under the demo post or comment answered, in its subreddit; a parent the demo does not list goes to r/demo.
      const listed = [...demoThings('t3', created_utc, options.trickleSeconds), ...demoThings('t1', created_utc, options.trickleSeconds)].find((thing) => thing.data.name === parent);
      const subreddit = listed ? String(listed.data.subreddit) : 'demo';
      const linkId = listed?.kind === 't1' ? String(listed.data.link_id) : parent;
      const permalink = `/r/${subreddit}/comments/${linkId.slice(3)}/_/${id}/`;
      const data = { id, name: `t1_${id}`, author: DEMO_USERNAME, body: text, parent_id: parent, link_id: linkId, subreddit, created_utc, permalink };
      keep({ kind: 't1', data });
      return send(res, 200, { json: { errors: [], data: { things: [{ kind: 't1', data }] } } });
    }
    const sr = form.get('sr') ?? 'demo';
    const permalink = `/r/${sr}/comments/${id}/post/`;
    keep({ kind: 't3', data: { id, name: `t3_${id}`, author: DEMO_USERNAME, title: form.get('title') ?? '', selftext: text, is_self: true, subreddit: sr, created_utc, permalink } });
    send(res, 200, { json: { errors: [], data: { url: `https://www.reddit.com${permalink}`, drafts_count: 0, id, name: `t3_${id}` } } });
  }

  function keep(thing: { kind: 't1' | 't3'; data: Json }) {
    published.unshift(thing);
    published.length = Math.min(published.length, MAX_KEPT);
  }

  function app(res: ServerResponse, url: URL) {
    const query = url.searchParams;
    if (url.pathname === '/api/info') {
      const children = query.has('sr_name')
        ? (query.get('sr_name') ?? '').split(',').filter((name) => /^[A-Za-z0-9_]{2,21}$/.test(name)).map(aboutThing)
        : [...demoThings('t3', now(), options.trickleSeconds), ...demoThings('t1', now(), options.trickleSeconds)]
            .filter((thing) => (query.get('id') ?? '').split(',').includes(String(thing.data.name)))
            .map((thing) => ({ kind: thing.kind, data: thing.data }));
      return send(res, 200, { kind: 'Listing', data: { after: null, dist: children.length, children, before: null } }, RATE_HEADERS);
    }
    const user = /^\/user\/([^/]+)\/(comments|submitted)\/?$/.exec(url.pathname);
    if (user) {
      const kind = user[2] === 'comments' ? 't1' : 't3';
      const own: DemoThing[] = published.filter((thing) => thing.kind === kind).map((thing) => ({ kind, subreddit: '', created: Number(thing.data.created_utc), data: thing.data }));
      return send(res, 200, listingPage(own, query), RATE_HEADERS);
    }
    if (url.pathname === '/api/v1/me') return send(res, 200, { name: DEMO_USERNAME, id: DEMO_USERNAME }, RATE_HEADERS);
    const match = /^\/r\/([^/]+)\/(search|about|new|comments)(?:\.json)?\/?$/.exec(url.pathname);
    if (!match) return send(res, 404, { message: 'Not Found', error: 404 }, RATE_HEADERS);
    const names = decodeURIComponent(match[1]!).split('+').filter(Boolean);
    if (match[2] === 'about') return send(res, 200, aboutThing(names[0]!), RATE_HEADERS);
    const lower = new Set(names.map((name) => name.toLowerCase()));
    const kind = match[2] === 'comments' ? 't1' : 't3';
    const things = demoThings(kind, now(), options.trickleSeconds).filter((thing) => lower.has(thing.subreddit));
    send(res, 200, listingPage(match[2] === 'search' ? searchPosts(things, lower, query) : things, query), RATE_HEADERS);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://demo.invalid');
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        if (req.method === 'POST' && url.pathname === '/api/v1/access_token') return token(res, new URLSearchParams(body));
        if (req.method === 'POST' && url.pathname === '/v1/chat/completions') {
          const answer = demoCompletion(JSON.parse(body), now());
          return answer ? send(res, 200, answer) : send(res, 400, { error: { message: 'not a chat completion request' } });
        }
        if (req.method === 'POST' && (url.pathname === '/api/comment' || url.pathname === '/api/submit')) return publish(res, url.pathname, new URLSearchParams(body));
        if (req.method !== 'GET') return send(res, 405, { message: 'Method Not Allowed', error: 405 });
        if (url.pathname === '/api/v1/authorize') return authorize(res, url.searchParams);
        app(res, url);
      } catch {
        send(res, 400, { message: 'Bad Request', error: 400 });
      }
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
