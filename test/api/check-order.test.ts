import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
