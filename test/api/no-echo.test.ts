import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/app/server.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { rawRequest } from '../support/raw-http.ts';

/** A well-formed key that belongs to no one: what a caller pastes by mistake into the wrong place. */
const SECRET = `ak_live_${'5e'.repeat(32)}`;

describe.each(engines)('answers never repeat request text that could hold a secret (%s)', (engine) => {
  let app: TestApp;
  let url: string;
  let token: string;
  let log = '';
  /** Every answer's status line, headers and body, to search for the secret at the end. */
  const seen: string[] = [];

  beforeAll(async () => {
    app = await startTestApp(engine, { env: { LOG_LEVEL: 'trace' } });
    ({ token } = await app.accountWithKey(50));
    const stream = new Writable({
      write(chunk, _encoding, done) {
        log += chunk;
        done();
      },
    });
    const server = await buildServer(app.services, { logStream: stream });
    url = await server.listen({ port: 0, host: '127.0.0.1' });
    afterAll(() => server.close());
  });
  afterAll(async () => {
    expect(seen.join('\n')).not.toContain(SECRET.slice(8));
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(SECRET.slice(8));
    await app.close();
  });

  async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    seen.push(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
    expect(text).not.toContain(SECRET.slice(8));
    return { status: response.status, text, json: () => JSON.parse(text) };
  }

  it('a 404 for a path holding a key says no endpoint matches and points to /docs and /openapi.json, without the path', async () => {
    const answer = await call('GET', `/api/v1/nosuch/${SECRET}`);
    expect(answer.status).toBe(404);
    expect(answer.json().detail).toContain('/docs');
    expect(answer.json().detail).toContain('/openapi.json');
  });

  it('a URL with a bad percent-encoding and a key is a problem+json 400 without the URL', async () => {
    const answer = await call('GET', `/api/v1/scrapes/%zz${SECRET}`);
    expect(answer.status).toBe(400);
    expect(answer.json().code).toBe('request.malformed');
    expect((await call('GET', `/dashboard/%zz${SECRET}`)).status).toBe(400);
  });

  it('a path segment over the router limit is a problem+json 404 without the path', async () => {
    const answer = await call('GET', `/api/v1/scrapes/${SECRET.repeat(2)}`);
    expect(answer.status).toBe(404);
    expect(answer.json().code).toBe('not_found');
  });

  const UNNAMED =
    'an unknown field was sent (its name is not repeated: it may be a secret); known fields: subreddits, keywords, query, match, sort, time, limit, include_nsfw, sources, webhook_url';

  it('a 422 for an unknown property named like a key says "an unknown field" and not its name', async () => {
    const answer = await call('POST', '/api/v1/scrape', { body: { subreddits: ['r/node'], keywords: ['a'], [SECRET]: 1 } });
    expect(answer.status).toBe(422);
    expect(answer.json().errors).toEqual([{ path: '/', message: UNNAMED }]);
  });

  it('a 422 for a short, harmless unknown property names it, so the caller can fix the typo', async () => {
    const answer = await call('POST', '/api/v1/scrape', { body: { subreddits: ['r/node'], keywords: ['a'], subredit: 'x' } });
    expect(answer.status).toBe(422);
    expect(answer.json().errors).toEqual([{ path: '/subredit', message: 'unknown field `subredit` (did you mean `subreddits`?)' }]);
  });

  it('a key-like name that fits the identifier pattern is not named either', async () => {
    const answer = await call('POST', '/api/v1/scrape', { body: { subreddits: ['r/node'], keywords: ['a'], [SECRET.slice(0, 40)]: 1 } });
    expect(answer.json().errors).toEqual([{ path: '/', message: UNNAMED }]);
  });

  it('a query parameter named like a key is refused without its name', async () => {
    expect((await call('GET', `/api/v1/usage?${SECRET.slice(0, 40)}=1`)).status).toBe(422);
    expect((await call('GET', `/api/v1/usage?api_key=${SECRET}`)).status).toBe(401);
    expect((await call('GET', `/dashboard/keys?${SECRET}=1`)).status).toBeLessThan(500);
  });

  it('a key as a query parameter\'s name or inside its value is a 401 auth.key_in_url that repeats neither', async () => {
    for (const query of [`${SECRET}=1`, `note=${SECRET}`, `a[]=x&a[]=${SECRET}`]) {
      const answer = await call('GET', `/api/v1/usage?${query}`);
      expect(answer.status).toBe(401);
      expect(answer.json().code).toBe('auth.key_in_url');
    }
  });

  it('an Idempotency-Key holding a key is never repeated, valid or not', async () => {
    const body = { subreddits: ['r/node'], keywords: ['a'] };
    expect((await call('POST', '/api/v1/scrape', { body, headers: { 'idempotency-key': `${SECRET} x` } })).status).toBe(400);
    const first = await call('POST', '/api/v1/scrape', { body, headers: { 'idempotency-key': SECRET, prefer: 'respond-async' } });
    expect(first.status).toBe(202);
    const reused = await call('POST', '/api/v1/scrape', { body: { ...body, limit: 5 }, headers: { 'idempotency-key': SECRET } });
    expect(reused.status).toBe(422);
  });

  it('a malformed header holding a key gets a raw 401 or 400 without it', async () => {
    const answers = [
      await rawRequest(url, `GET /api/v1/balance HTTP/1.1\r\nHost: x\r\nX-${SECRET}: \x01${SECRET}\r\n\r\n`),
      await rawRequest(url, `GET /api/v1/${SECRET} ${SECRET}\r\nHost: x\r\n\r\n`),
    ];
    for (const answer of answers) {
      seen.push(JSON.stringify(answer));
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
  });

  it('the dashboard\'s error pages do not repeat the path either', async () => {
    const answer = await call('GET', `/dashboard/${SECRET}`);
    expect(answer.status).toBe(404);
  });
});
