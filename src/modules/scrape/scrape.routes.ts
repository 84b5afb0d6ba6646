import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { invalidCursor } from '../../shared/http/pagination.ts';
import { outcomeSamples } from '../../shared/outcomes.ts';
import { creditsErrors } from '../credits/credits.errors.ts';
import { webhooksErrors } from '../webhooks/webhooks.errors.ts';
import { matchingRuleErrors } from '../../shared/http/validation-messages.ts';
import { scrapeErrors } from './scrape.errors.ts';
import { committingScrape } from './scrape.usecases.ts';
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

const SAMPLE_ID = 'scr_5f0c2a9e1b7d4c3a8e6f0b2d9c41';

export const scrapeRoutes: FastifyPluginAsyncTypebox<{ scrape: ScrapeUsecases }> = async (app, { scrape }) => {
  const respondsAsync = (request: FastifyRequest) => preferences(request.headers.prefer).has('respond-async');

  app.post(
    '/scrape',
    {
      config: {
        scope: 'scrape',
        errors: [
          ...matchingRuleErrors('The request body'),
          creditsErrors.insufficient(3, 12),
          creditsErrors.keyLimitReached({ limit: 500, spent: 496, required: 12, resetsAt: '2026-12-01T00:00:00.000Z' }),
          webhooksErrors.invalidUrl('must use https'),
          webhooksErrors.notConfigured(),
          scrapeErrors.notConfigured(),
          scrapeErrors.redditBlocked(SAMPLE_ID, 'Reddit answered 403 to the app'),
          scrapeErrors.upstreamUnavailable(SAMPLE_ID, 'Reddit answered 503', 503, 30),
          scrapeErrors.upstreamUnavailable(SAMPLE_ID, 'Reddit answered 500', 500, undefined),
          ...outcomeSamples(committingScrape(SAMPLE_ID, 12)),
        ],
        idempotent: {
          replay: async (request, reply, id) => {
            const respondAsync = respondsAsync(request);
            return answer(reply, respondAsync, await scrape.outcome(callerOf(request).accountId, id, { respondAsync }));
          },
        },
      },
      schema: {
        summary: 'Find Reddit posts in subreddits that match keywords (billable)',
        operationId: 'createScrape',
        description:
          'Price: PRICE_SCRAPE × distinct subreddits × distinct keywords, charged before Reddit is called. ' +
          'Pairs of unavailable subreddits are refunded; a Reddit outage refunds everything. 200 only for a completed ' +
          'scrape; 202 with Location while it runs. With an Idempotency-Key, a retry never scrapes or holds again: it ' +
          'gets the same scrape as it now stands.',
        tags: ['scrape'],
        body: scrapeBodySchema,
        headers: Type.Object({
          prefer: Type.Optional(Type.String({ description: '"respond-async" (RFC 7240) answers 202 at once' })),
        }),
        response: {
          200: scrapeSchema,
          202: { ...scrapeSchema, description: 'Accepted: poll the Location, or wait for the webhook' },
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
      config: { scope: 'read', errors: [scrapeErrors.notFound()] },
      schema: {
        summary: 'One scrape of this account, with its results (free)',
        operationId: 'getScrape',
        description:
          'Poll this after a 202 until `status` is completed or failed; a completed scrape carries its results, a failed one its `error` (and nothing is charged).',
        tags: ['scrape'],
        params: scrapeParamsSchema,
        response: { 200: scrapeSchema },
      },
    },
    async (request) => scrape.get(callerOf(request).accountId, request.params.id),
  );

  app.get(
    '/scrapes',
    {
      config: { scope: 'read', errors: [invalidCursor()] },
      schema: {
        summary: "This account's scrapes, newest first, without results (free, cursor-paginated)",
        operationId: 'listScrapes',
        description:
          'Each scrape as GET /scrapes/{id} shows it, without its results. Pass `next_cursor` back as `cursor` for the next page.',
        tags: ['scrape'],
        querystring: pageQuerySchema,
        response: { 200: scrapeListSchema },
      },
    },
    async (request) =>
      scrape.list(callerOf(request).accountId, { limit: request.query.limit ?? 20, cursor: request.query.cursor }),
  );
};
