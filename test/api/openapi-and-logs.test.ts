import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { serverWithLogs, type LogLine } from '../support/logged-server.ts';

describe('the public endpoints outside /api/v1/', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite');
  });
  afterAll(() => app.close());

  it('GET /healthz answers without a key', async () => {
    const response = await app.api('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });

  it('GET /openapi.json describes every endpoint, the Bearer scheme and the problem bodies', async () => {
    const response = await app.api('GET', '/openapi.json');
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(Object.keys(doc.paths).sort()).toEqual(
      expect.arrayContaining(['/api/v1/balance', '/api/v1/scrape', '/api/v1/scrapes', '/api/v1/scrapes/{id}', '/api/v1/usage']),
    );
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Problem).toBeDefined();
    const scrape = doc.paths['/api/v1/scrape'].post;
    expect(Object.keys(scrape.responses)).toEqual(expect.arrayContaining(['200', '401', '402', '422']));
  });
});

describe('request logs', () => {
  let app: TestApp;
  let url: string;
  let lines: LogLine[];
  let raw: () => string;

  beforeAll(async () => {
    app = await startTestApp('sqlite', { env: { LOG_LEVEL: 'info' } });
    const logged = await serverWithLogs(app);
    ({ url, lines, raw } = logged);
    afterAll(() => logged.close());
  });
  afterAll(() => app.close());

  it('are one line per request with method, route, status, duration and key prefix, and never a token or a query', async () => {
    const { token } = await app.accountWithKey(3);
    await fetch(`${url}/api/v1/balance`, { headers: { authorization: `Bearer ${token}` } });
    await fetch(`${url}/api/v1/usage?api_key=${token}&secret=q`, { headers: { authorization: `Bearer ${token}` } });
    await fetch(`${url}/api/v1/balance`, { headers: { authorization: `Bearer ${token}x` } });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      route: '/api/v1/balance',
      status: 200,
      key_prefix: token.slice(0, 16),
      duration_ms: expect.any(Number),
    });
    expect(requests[1]).toMatchObject({ route: '/api/v1/usage', status: 401 });
    expect(requests[2]).toMatchObject({ status: 401 });
    expect(raw()).not.toContain(token.slice(16));
    expect(raw()).not.toContain('secret=q');
    expect(raw()).not.toContain('api_key');
  });
});
