import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * Opens a connection, sends `head`, then one more `trickle` every 100 ms, as a slow-loris client
 * does, until the server closes the connection; resolves with what the server wrote back.
 */
function trickle(baseUrl: string, head: string, more: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(Number(port), hostname, () => socket.write(head));
    const timer = setInterval(() => socket.writable && socket.write(more), 100);
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    });
  });
}

describe('the server closes connections that send their request too slowly', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { env: { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1000' } });
  });
  afterAll(() => app.close());

  it('a client that trickles its headers gets 408 and the connection is closed', async () => {
    const answer = await trickle(app.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 20_000);

  it('a client that trickles its body gets 408 and the connection is closed', async () => {
    const head = 'POST /dashboard/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\n';
    const answer = await trickle(app.url, head, 'a');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 20_000);

  it('a request sent at once is answered as usual', async () => {
    expect((await app.api('GET', '/healthz')).status).toBe(200);
  });
});
