import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/modules/keys/keys.scopes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

interface Route {
  method: string;
  path: string;
}

/**
 * Every route the server answers, read from Fastify's route tree (hidden ones too, unlike the OpenAPI
 * document): each line of `printRoutes` adds its segment to the path of the line it hangs from.
 */
function routesOf(server: FastifyInstance): Route[] {
  const pathAtDepth: string[] = [];
  return server
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .flatMap((line) => {
      const match = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
      if (!match) return [];
      const depth = match[1]!.length / 4;
      const path = (depth > 0 ? pathAtDepth[depth - 1]! : '') + match[2]!;
      pathAtDepth[depth] = path;
      return (match[3]?.split(', ') ?? []).map((method) => ({ method, path }));
    });
}

/** A call each route would refuse on its own: broken JSON, an over-long id, an out-of-range limit. */
function badCall(app: TestApp, { method, path }: Route, token?: string) {
  const url = path.replace(/:[a-z_]+/g, 'x'.repeat(65));
  if (method === 'POST') return app.api(method, url, { token, body: '{broken json' });
  return app.api(method, `${url}?limit=0`, { token });
}

/** The scope each endpoint needs; HEAD needs what GET needs. */
const SCOPE_OF: Record<string, Scope> = {
  'GET /api/v1/balance': 'read',
  'GET /api/v1/usage': 'read',
  'GET /api/v1/usage/daily': 'read',
  'GET /api/v1/scrapes': 'read',
  'GET /api/v1/scrapes/:id': 'read',
  'GET /api/v1/generations/:id': 'read',
  'GET /api/v1/publications/:id': 'read',
  'POST /api/v1/scrape': 'scrape',
  'POST /api/v1/generate': 'generate',
  'POST /api/v1/publish': 'publish',
  'GET /api/v1/monitors': 'read',
  'GET /api/v1/monitors/:id': 'read',
  'GET /api/v1/monitors/:id/matches': 'read',
  'POST /api/v1/monitors': 'monitors',
  'PATCH /api/v1/monitors/:id': 'monitors',
  'DELETE /api/v1/monitors/:id': 'monitors',
};

// The rate-limit window is per minute: a pinned clock keeps one call and the next in the same window.
const clock = () => new Date('2026-03-01T12:00:30Z');

describe.each(engines)('the order of checks on every /api/v1/ endpoint on %s', (engine) => {
  let app: TestApp;
  let routes: Route[];

  beforeAll(async () => {
    app = await startTestApp(engine, { env: { RATE_LIMIT_PER_MINUTE: '1' }, overrides: { clock }, worker: false });
    routes = routesOf(app.server).filter((route) => route.path.startsWith('/api/v1/'));
  });
  afterAll(() => app.close());

  it('the routes read from the server include every feature’s endpoints', () => {
    const listed = routes.map((route) => `${route.method} ${route.path}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        'GET /api/v1/balance',
        'GET /api/v1/usage',
        'POST /api/v1/scrape',
        'GET /api/v1/scrapes',
        'GET /api/v1/scrapes/:id',
        'POST /api/v1/generate',
        'GET /api/v1/generations/:id',
        'POST /api/v1/publish',
        'GET /api/v1/publications/:id',
      ]),
    );
  });

  it('every endpoint answers a call without a key with a 401 problem, however wrong the rest of the call is', async () => {
    for (const route of routes) {
      const response = await badCall(app, route);
      const where = `${route.method} ${route.path}`;
      expect(response.status, where).toBe(401);
      expect(response.headers.get('content-type'), where).toMatch(/^application\/problem\+json/);
      if (route.method !== 'HEAD') expect((await response.json()).code, where).toBe('auth.missing');
    }
  });

  it('every endpoint declares the scope a key needs, and refuses a key without it with 403 before the rate limit', async () => {
    const listed = routes.map((route) => `${route.method === 'HEAD' ? 'GET' : route.method} ${route.path}`);
    expect(listed).toEqual(expect.arrayContaining(Object.keys(SCOPE_OF)));
    for (const route of routes) {
      const where = `${route.method} ${route.path}`;
      const { accountId } = await app.accountWithKey(10);
      // Of a read-only key and a key with every scope but read, exactly one lacks the route's scope.
      const keys = [['read'] as Scope[], SCOPES.filter((scope) => scope !== 'read')].map((scopes, i) =>
        app.services.keys.createKey(accountId, `probe-${i}`, { scopes }),
      );
      const tokens = (await Promise.all(keys)).map(({ token }) => token);
      const answers = [];
      for (const token of tokens) answers.push(await badCall(app, route, token));
      // A route without a declared scope fails both with a 500.
      expect(answers.map((answer) => answer.status === 403).sort(), where).toEqual([false, true]);
      const refused = answers.findIndex((answer) => answer.status === 403);
      expect(answers[1 - refused]!.status, where).not.toBe(500);
      const needed = /, scope="([a-z]+)"$/.exec(answers[refused]!.headers.get('www-authenticate') ?? '')?.[1];
      expect(SCOPES, where).toContain(needed);
      const declared = SCOPE_OF[listed[routes.indexOf(route)]!];
      if (declared) expect(needed, where).toBe(declared);
      // A refused call does not use the key's budget of 1 a minute: the same call again is still a 403.
      expect((await badCall(app, route, tokens[refused]!)).status, where).toBe(403);
    }
  });

  it('every endpoint that takes no body answers Content-Type: application/json with an empty body as it answers a call without the header', async () => {
    for (const route of routes.filter(({ method }) => !['POST', 'PUT', 'PATCH'].includes(method))) {
      const where = `${route.method} ${route.path}`;
      // A key each: the budget is one call a minute.
      const plain = await badCall(app, route, (await app.accountWithKey(10)).token);
      const url = `${route.path.replace(/:[a-z_]+/g, 'x'.repeat(65))}?limit=0`;
      const token = (await app.accountWithKey(10)).token;
      const typed = await app.api(route.method, url, { token, headers: { 'content-type': 'application/json' } });
      expect(typed.status, where).toBe(plain.status);
    }
  });

  it('every endpoint answers a key past its budget with a 429 before it reads or validates the request', async () => {
    for (const route of routes) {
      const { token } = await app.accountWithKey(10);
      const where = `${route.method} ${route.path}`;
      // The key's one call this minute passes the key and the rate limit, so the request itself is judged.
      const first = await badCall(app, route, token);
      expect([401, 429], where).not.toContain(first.status);
      const throttled = await badCall(app, route, token);
      expect(throttled.status, where).toBe(429);
      expect(throttled.headers.get('content-type'), where).toMatch(/^application\/problem\+json/);
      if (route.method !== 'HEAD') expect((await throttled.json()).code, where).toBe('rate_limit.exceeded');
    }
  });
});
