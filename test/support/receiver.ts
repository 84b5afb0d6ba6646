import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver (on 127.0.0.1 unless `host` says otherwise) that answers `failFirst` requests
 * with 500, then 200; or as `answer` says (a redirect, say).
 */
export async function startReceiver(
  failFirst = 0,
  options: { host?: string; port?: number; answer?: (res: ServerResponse) => void } = {},
) {
  const host = options.host ?? '127.0.0.1';
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      if (options.answer) return options.answer(res);
      res.statusCode = received.length <= failFirst ? 500 : 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://${host}:${port}/hooks/subpilot`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
