import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { contentSecurityPolicy, PAGE_SECURITY_HEADERS } from '../../shared/http/page-security.ts';

/*
 * GET /docs: the API reference, drawn in the browser by Swagger UI from our own /openapi.json.
 *
 * Why Swagger UI, served from swagger-ui-dist: it is the most actively maintained renderer (releases
 * every few weeks), its package sets no Node engines (Redoc 3 and Scalar need Node 22), and it runs under
 * a policy as strict as the dashboard's: its styles are one stylesheet and it sets the rest through the
 * DOM, which style-src does not govern, so neither scripts nor styles need 'unsafe-inline'. Redoc 2 needs
 * style-src 'unsafe-inline' for the <style> elements it injects and a worker from a blob: URL; RapiDoc
 * releases rarely and loads web fonts from a CDN unless told not to. @fastify/swagger-ui wraps the same
 * files in @fastify/static and spec routes of its own; five fixed files read once need neither.
 *
 * Every URL on the page is relative (docs/assets/…, openapi.json), so it loads from whichever origin
 * served it and reaches nothing else: no CDN, no web fonts, no validator service.
 */

const require = createRequire(import.meta.url);

interface Asset {
  /** The name it is served under, carrying a hash of its content (see `immutable` below). */
  name: string;
  type: string;
  body: Buffer;
}

function asset(path: string, type: string): Asset {
  const body = readFileSync(path);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const file = basename(path);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, type, body };
}

const own = (name: string) => fileURLToPath(new URL(`./public/${name}`, import.meta.url));

/** Read once, when the server first loads this module: the library's prebuilt browser files and ours. */
const ASSETS = {
  libraryCss: asset(require.resolve('swagger-ui-dist/swagger-ui.css'), 'text/css; charset=utf-8'),
  libraryJs: asset(require.resolve('swagger-ui-dist/swagger-ui-bundle.js'), 'text/javascript; charset=utf-8'),
  css: asset(own('docs.css'), 'text/css; charset=utf-8'),
  js: asset(own('docs.js'), 'text/javascript; charset=utf-8'),
  // Named by the page, so the browser does not ask for /favicon.ico, a 404.
  icon: asset(require.resolve('swagger-ui-dist/favicon-32x32.png'), 'image/png'),
};

/**
 * The dashboard's policy with one addition: images may be data: URLs, which is how Swagger UI's
 * stylesheet draws its arrows and icons. Its default-src 'self' keeps /openapi.json and the "Try it
 * out" calls on this origin, and nowhere else.
 */
const SECURITY_HEADERS = { ...PAGE_SECURITY_HEADERS, 'content-security-policy': contentSecurityPolicy({ imageSources: ['data:'] }) };

const href = (a: Asset) => `docs/assets/${a.name}`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>subpilot API reference</title>
<link rel="icon" type="image/png" sizes="32x32" href="${href(ASSETS.icon)}">
<link rel="stylesheet" href="${href(ASSETS.libraryCss)}">
<link rel="stylesheet" href="${href(ASSETS.css)}">
<script src="${href(ASSETS.libraryJs)}" defer></script>
<script src="${href(ASSETS.js)}" defer></script>
</head>
<body>
<header class="docs-top">
  <a class="brand" href="dashboard/keys">subpilot</a>
  <nav aria-label="Links"><a href="dashboard/keys">Dashboard</a> <a href="openapi.json">openapi.json</a></nav>
</header>
<noscript><p class="docs-noscript">This page draws the reference with JavaScript. The same description is in <a href="openapi.json">openapi.json</a>.</p></noscript>
<main id="swagger-ui"></main>
</body>
</html>
`;

/** Like /openapi.json, the page needs no key: it describes the endpoints, not an account. */
export async function apiDocsRoutes(app: FastifyInstance): Promise<void> {
  // The reference describes /api/v1/; its own page and files are not part of it.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });

  // The page names the current files, so a new release (new hashes) is seen on the next load.
  app.get('/docs', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(PAGE),
  );
  for (const file of Object.values(ASSETS)) {
    // A file's URL changes whenever its content does, so a browser may keep it for good.
    app.get(`/docs/assets/${file.name}`, async (_request, reply) =>
      reply.type(file.type).header('cache-control', 'public, max-age=31536000, immutable').send(file.body),
    );
  }
}
