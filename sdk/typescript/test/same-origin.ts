import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

const PAGE = '<!doctype html><title>sdk</title><script type="module">import * as sdk from "/sdk/index.js"; window.sdk = sdk;</script>';

/**
 * One origin for a page and the API, as a site that serves its own front end and forwards `/api/` to
 * subpilot: the built SDK under `/sdk/`, a page at `/` that imports it as an ES module (as `window.sdk`), and every other request passed to
 * `api` over real HTTP (the API sends no CORS headers, so a page of another origin could not read it).
 */
export async function startSameOrigin(dist: string, api: string) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (path.startsWith('/sdk/')) {
      const file = await readFile(join(dist, normalize(path.slice('/sdk/'.length)))).catch(() => null);
      if (!file) return void res.writeHead(404).end();
      return void res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'application/octet-stream' }).end(file);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)).map(([name, value]) => [name, String(value)]));
    const answer = await fetch(`${api}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
