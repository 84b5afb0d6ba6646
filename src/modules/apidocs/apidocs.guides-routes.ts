import type { FastifyPluginAsync } from 'fastify';
import { guideHtml, indexHtml, missingHtml } from './apidocs.pages.ts';
import type { GuidesUsecases } from './apidocs.usecases.ts';

const HTML = 'text/html; charset=utf-8';

/**
 * GET /docs/guides: the guides, rendered on the server from the repository's documents, so a user of
 * an instance reads them there rather than in a repository they may not have. `/docs/guides/<name>.md`
 * is the same guide as Markdown (text/markdown), its links leading to the other guides' Markdown.
 * Registered inside apiDocsRoutes: the reference's security headers, and no key.
 */
export const guidesRoutes: FastifyPluginAsync<{ guides: GuidesUsecases }> = async (app, { guides }) => {
  app.get('/docs/guides', async (_request, reply) => reply.type(HTML).header('cache-control', 'no-cache').send(indexHtml(guides.groups())));

  app.get<{ Params: { name: string } }>('/docs/guides/:name', async (request, reply) => {
    const { name } = request.params;
    if (name.endsWith('.md')) {
      const markdown = guides.markdown(name.slice(0, -'.md'.length));
      if (markdown !== null) return reply.type('text/markdown; charset=utf-8').header('cache-control', 'no-cache').send(markdown);
    } else {
      const page = guides.page(name);
      if (page) return reply.type(HTML).header('cache-control', 'no-cache').send(guideHtml(page, guides.groups()));
    }
    // A page for people, who reach this by a stale link: it says so and lists the guides that exist.
    return reply.code(404).type(HTML).send(missingHtml(guides.groups()));
  });
};
