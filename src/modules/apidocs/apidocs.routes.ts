import type { FastifyInstance } from 'fastify';
import { ASSETS, SECURITY_HEADERS, type Asset } from './apidocs.assets.ts';
import { GUIDE_GROUPS } from './apidocs.guides.ts';
import { guidesRoutes } from './apidocs.guides-routes.ts';
import { llmsTxt } from './apidocs.llms.ts';
import { createGuidesUsecases, REPOSITORY_ROOT } from './apidocs.usecases.ts';

/*
 * GET /docs: the API reference, drawn in the browser by Swagger UI from our own /openapi.json; the
 * guides, the documents rendered on the server, are under /docs/guides (apidocs.guides-routes.ts).
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
  <nav aria-label="Links"><a href="docs/guides">Guides</a> <a href="dashboard/keys">Dashboard</a> <a href="openapi.json">openapi.json</a></nav>
</header>
<noscript><p class="docs-noscript">This page draws the reference with JavaScript. The same description is in <a href="openapi.json">openapi.json</a>.</p></noscript>
<main id="swagger-ui"></main>
</body>
</html>
`;

/** Like /openapi.json, the page needs no key: it describes the endpoints, not an account. */
export async function apiDocsRoutes(app: FastifyInstance, options: { publicUrl: string | null }): Promise<void> {
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
  // For agents: what the service is and where every guide's Markdown is (apidocs.llms.ts), built once.
  const llms = llmsTxt(GUIDE_GROUPS, options.publicUrl);
  app.get('/llms.txt', async (_request, reply) => reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(llms));
  // Inside this plugin: the same policy and headers, and likewise left out of the API description.
  await app.register(guidesRoutes, { guides: createGuidesUsecases({ root: REPOSITORY_ROOT }) });
}
