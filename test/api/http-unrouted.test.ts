import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { serverWithLogs, type LogLine } from '../support/logged-server.ts';
import { rawRequest, type RawResponse } from '../support/raw-http.ts';

/** Methods Node's parser reads that no route here serves; QUERY is the one Fastify gives a body rule of its own. */
const UNROUTED = ['QUERY', 'PROPFIND', 'SEARCH', 'LINK', 'UNLINK', 'MKCOL', 'PURGE', 'REPORT', 'TRACE'];

/** No body; a body without Content-Type; a JSON body. */
const BODIES = [
  ['no body', '\r\n'],
  ['a body without Content-Type', 'Content-Length: 2\r\n\r\n{}'],
  ['a JSON body', 'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'],
] as const;

describe.each(engines)('requests the routes never see are answered, never with a 500 (%s)', (engine) => {
  let app: TestApp;
  let url: string;
  let lines: LogLine[];

  beforeAll(async () => {
    app = await startTestApp(engine, { env: { LOG_LEVEL: 'info' } });
    const logged = await serverWithLogs(app);
    ({ url, lines } = logged);
    afterAll(() => logged.close());
  });
  afterAll(() => app.close());

  function expectProblem(response: RawResponse, status: number, code: string) {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(response.body)).toMatchObject({ status, code });
  }

  const send = (method: string, path: string, rest: string) => rawRequest(url, `${method} ${path} HTTP/1.1\r\nHost: x\r\n${rest}`);

  describe.each(BODIES)('with %s', (_label, rest) => {
    it.each(UNROUTED)('%s on a known path is a 405 with Allow, and logs no error', async (method) => {
      const before = lines.length;
      const response = await send(method, '/api/v1/balance', rest);
      expectProblem(response, 405, 'request.method_not_allowed');
      expect(response.headers.allow).toBe('GET, HEAD');
      expect(lines.slice(before).filter((line) => line.level >= 50)).toEqual([]);
    });

    it.each(UNROUTED)('%s on an unknown path is a 404', async (method) => {
      expectProblem(await send(method, '/api/v1/nothing-here', rest), 404, 'not_found');
    });
  });

  it('CONNECT, which Node hands to a listener of its own, is a 501 instead of a dropped connection', async () => {
    expectProblem(await send('CONNECT', 'example.com:443', '\r\n'), 501, 'request.method_not_implemented');
  });

  it('a request without a Host header is a problem+json 400, before the key is looked at', async () => {
    for (const path of ['/api/v1/balance', '/api/v1/nothing-here', '/dashboard/keys', '/healthz']) {
      expectProblem(await rawRequest(url, `GET ${path} HTTP/1.1\r\n\r\n`), 400, 'request.missing_host');
    }
  });

  it('an HTTP/1.0 request, which may leave out Host, is served as usual', async () => {
    expectProblem(await rawRequest(url, 'GET /api/v1/balance HTTP/1.0\r\n\r\n'), 401, 'auth.missing');
  });

  it('a client that hangs up in the middle of its body is logged at info as a client abort, and as nothing else', async () => {
    const { token } = await app.accountWithKey(5);
    const { port } = new URL(url);
    const before = lines.length;
    for (const path of ['/api/v1/scrape', '/dashboard/login']) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"subre`,
          );
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on('close', () => resolve());
        socket.on('error', reject);
      });
    }
    const aborted = () => lines.slice(before).filter((line) => line.msg.startsWith('client aborted'));
    for (let wait = 0; aborted().length < 2 && wait < 50; wait++) await new Promise((resolve) => setTimeout(resolve, 20));

    expect(aborted()).toHaveLength(2);
    for (const line of aborted()) {
      expect(line.level).toBe(30);
      expect(lines.slice(before).filter((other) => other.reqId === line.reqId)).toEqual([line]);
    }
    expect(lines.slice(before).filter((line) => line.level >= 40)).toEqual([]);
  });
});
