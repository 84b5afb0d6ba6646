import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../app/schemas.ts';
import { callerOf } from '../keys/keys.auth.ts';
import { pageQuerySchema, scrapeBodySchema, scrapeListSchema, scrapeParamsSchema, scrapeSchema } from './scrape.schemas.ts';
import type { ScrapeUsecases } from './scrape.usecases.ts';

export const scrapeRoutes: FastifyPluginAsyncTypebox<{ scrape: ScrapeUsecases }> = async (app, { scrape }) => {
  app.post(
    '/scrape',
    {
      schema: {
        summary: 'Find Reddit posts in subreddits that match keywords (billable)',
        description:
          'Price: PRICE_SCRAPE × distinct subreddits × distinct keywords, charged before Reddit is called. ' +
          'Pairs of unavailable subreddits are refunded; a Reddit outage refunds everything.',
        tags: ['scrape'],
        body: scrapeBodySchema,
        response: { 200: scrapeSchema, ...problemResponses(400, 401, 402, 413, 415, 422, 502, 503) },
      },
    },
    async (request) => scrape.scrape(callerOf(request), request.body),
  );

  app.get(
    '/scrapes/:id',
    {
      schema: {
        summary: 'One scrape of this account, with its results (free)',
        tags: ['scrape'],
        params: scrapeParamsSchema,
        response: { 200: scrapeSchema, ...problemResponses(401, 404) },
      },
    },
    async (request) => scrape.get(callerOf(request).accountId, request.params.id),
  );

  app.get(
    '/scrapes',
    {
      schema: {
        summary: "This account's scrapes, newest first, without results (free, cursor-paginated)",
        tags: ['scrape'],
        querystring: pageQuerySchema,
        response: { 200: scrapeListSchema, ...problemResponses(400, 401, 422) },
      },
    },
    async (request) =>
      scrape.list(callerOf(request).accountId, { limit: request.query.limit ?? 20, cursor: request.query.cursor }),
  );
};
