import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { ScrapeUsecases } from '../scrape/scrape.usecases.ts';
import { sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import { scrapePage, scrapesPage } from './views/scrapes.ts';

const PAGE_SIZE = 25;
const pageQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 200 })) });
const scrapeParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const resultsQuery = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 200 })),
  subreddit: Type.Optional(Type.String({ maxLength: 200 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
});

/** Pages of the scrapes the account's keys ran. Behind requireSession. (The Credits page: dashboard.credits-routes.ts.) */
export const activityRoutes: FastifyPluginAsyncTypebox<{ scrape: ScrapeUsecases }> = async (app, { scrape }) => {
  app.get('/scrapes', { schema: { querystring: pageQuery } }, async (request, reply) => {
    const { cursor } = request.query;
    const scrapes = await scrape.list(sessionOf(request).accountId, { limit: PAGE_SIZE, cursor });
    return sendPage(reply, scrapesPage({ viewer: viewerOf(request)!, scrapes, firstPage: !cursor }));
  });

  app.get('/scrapes/:id', { schema: { params: scrapeParams, querystring: resultsQuery } }, async (request, reply) => {
    // An empty select ("any") arrives as an empty string.
    const { keyword, subreddit, page = 1 } = request.query;
    const filters = { keyword: keyword || undefined, subreddit: subreddit || undefined };
    const view = await scrape.resultsPage(sessionOf(request).accountId, request.params.id, { ...filters, page, pageSize: PAGE_SIZE });
    return sendPage(reply, scrapePage({ viewer: viewerOf(request)!, ...view, filters }));
  });
};
