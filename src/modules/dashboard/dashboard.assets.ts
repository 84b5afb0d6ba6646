import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

/** Read once at start-up: two small files, so no static-file plugin and no path handling from requests. */
const ASSETS = {
  'dashboard.css': { type: 'text/css; charset=utf-8', body: read('dashboard.css') },
  'dashboard.js': { type: 'text/javascript; charset=utf-8', body: read('dashboard.js') },
} as const;

function read(name: string): string {
  return readFileSync(new URL(`./public/${name}`, import.meta.url), 'utf8');
}

export function registerAssets(app: FastifyInstance): void {
  for (const [name, asset] of Object.entries(ASSETS)) {
    app.get(`/assets/${name}`, async (_request, reply) =>
      reply.type(asset.type).header('cache-control', 'public, max-age=300').send(asset.body),
    );
  }
}
