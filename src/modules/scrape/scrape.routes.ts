import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { problemResponses } from '../../shared/http/schemas.ts';
import { callerOf } from '../keys/keys.hooks.ts';
import { pageQuerySchema, scrapeBodySchema, scrapeListSchema, scrapeParamsSchema, scrapeSchema } from './scrape.schemas.ts';
import type { ScrapeUsecases } from './scrape.usecases.ts';

/** The preference tokens of RFC 7240 Prefer headers (names only, case-insensitive). */
const preferences = (header: string | string[] | undefined) =>
  new Set(
    [header ?? []]
      .flat()
      .flatMap((value) => value.split(','))
      .map((token) => token.split(/[;=]/)[0]!.trim().toLowerCase()),
  );

/** A scrape's answer: 200 once it has ended, else 202 with where to poll (see ScrapeUsecases.outcome). */
function answer(reply: FastifyReply, respondAsync: boolean, { done, scrape: view }: { done: boolean; scrape: { id: string } }) {
  if (done) return reply.code(200).send(view);
  if (respondAsync) reply.header('preference-applied', 'respond-async');
  return reply.code(202).header('location', `/api/v1/scrapes/${view.id}`).send(view);
}

export const scrapeRoutes: FastifyPluginAsyncTypebox<{ scrape: ScrapeUsecases }> = async (app, { scrape }) => {
  const respondsAsync = (request: FastifyRequest) => preferences(request.headers.prefer).has('respond-async');

  app.post(
    '/scrape',
    {
      config: {
        scope: 'scrape',
        idempotent: {
          replay: async (request, reply, id) => {
            const respondAsync = respondsAsync(request);
            return answer(reply, respondAsync, await scrape.outcome(callerOf(request).accountId, id, { respondAsync }));
          },
        },
      },
      schema: {
        summary: 'Find Reddit posts in subreddits that match keywords (billable)',
        description:
          'Price: PRICE_SCRAPE × distinct subreddits × distinct keywords, charged before Reddit is called. ' +
          'Pairs of unavailable subreddits are refunded; a Reddit outage refunds everything. 200 only for a completed ' +
          'scrape; 202 with Location while it runs. With an Idempotency-Key, a retry never scrapes or holds again: it ' +
          'gets the same scrape as it now stands.',
        tags: ['scrape'],
        body: scrapeBodySchema,
        headers: Type.Object({
          prefer: Type.Optional(Type.String({ description: '"respond-async" (RFC 7240) answers 202 at once' })),
          'idempotency-key': Type.Optional(Type.String({ description: 'A retry with the same key gets the first outcome for 24 h, never a second scrape' })),
        }),
        response: {
          200: scrapeSchema,
          202: { ...scrapeSchema, description: 'Accepted: poll the Location, or wait for the webhook' },
          ...problemResponses(400, 401, 402, 403, 409, 413, 415, 422, 429, 502, 503),
        },
      },
    },
    async (request, reply) => {
      const respondAsync = respondsAsync(request);
      return answer(reply, respondAsync, await scrape.submit(callerOf(request), request.body, { respondAsync, idempotency: request.idempotency }));
    },
  );

  app.get(
    '/scrapes/:id',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'One scrape of this account, with its results (free)',
        tags: ['scrape'],
        params: scrapeParamsSchema,
        response: { 200: scrapeSchema, ...problemResponses(401, 403, 404) },
      },
    },
    async (request) => scrape.get(callerOf(request).accountId, request.params.id),
  );

  app.get(
    '/scrapes',
    {
      config: { scope: 'read' },
      schema: {
        summary: "This account's scrapes, newest first, without results (free, cursor-paginated)",
        tags: ['scrape'],
        querystring: pageQuerySchema,
        response: { 200: scrapeListSchema, ...problemResponses(400, 401, 403, 422) },
      },
    },
    async (request) =>
      scrape.list(callerOf(request).accountId, { limit: request.query.limit ?? 20, cursor: request.query.cursor }),
  );
};
