import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Answer } from './openapi-contract.ts';

/** One request that went through the proxy, and the answer the server gave to it. */
export interface Exchange extends Answer {
  requestHeaders: IncomingHttpHeaders;
  /** The server answered, and the proxy cut the client's connection instead of passing the answer on. */
  dropped: boolean;
}

/**
 * An HTTP relay on 127.0.0.1 in front of `upstream` that records every exchange (for a client that
 * is not ours to instrument, an SDK in another language), and can lose one answer: the server does
 * the work and answers, and the client sees its connection closed with no answer, as when a network
 * fails on the way back.
 */
export async function startRecordingProxy(upstream: string) {
  const target = new URL(upstream);
  const exchanges: Exchange[] = [];
  let drop: ((method: string, target: string) => boolean) | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const forward = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const method = req.method ?? 'GET';
            const path = req.url ?? '/';
            const dropped = drop?.(method, path) ?? false;
            if (dropped) drop = null;
            const headers = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
            exchanges.push({ method, target: path, status: answer.statusCode ?? 0, headers, body: Buffer.concat(body).toString('utf8'), requestHeaders: req.headers, dropped });
            if (dropped) return req.socket.destroy();
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      forward.on('error', () => req.socket.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    /** Loses the answer to the next request that `which` picks (once). */
    dropAnswer(which: (method: string, target: string) => boolean) {
      drop = which;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type RecordingProxy = Awaited<ReturnType<typeof startRecordingProxy>>;
