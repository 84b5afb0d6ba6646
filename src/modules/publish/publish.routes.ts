import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../shared/http/schemas.ts';
import { parseIdempotencyKey } from '../idempotency/idempotency.schemas.ts';
import { callerOf } from '../keys/keys.hooks.ts';
import { publicationParamsSchema, publicationSchema, publishBodySchema, publishHeadersSchema } from './publish.schemas.ts';
import type { PublishUsecases } from './publish.usecases.ts';

export const publishRoutes: FastifyPluginAsyncTypebox<{ publish: PublishUsecases }> = async (app, { publish }) => {
  app.post(
    '/publish',
    {
      config: { scope: 'publish' },
      schema: {
        summary: "Post a comment or a self post to Reddit as the account's connected Reddit user (billable)",
        description:
          'Price: PRICE_PUBLISH, reserved before Reddit is called and refunded on any refusal, so only accepted posts cost. ' +
          'Send an Idempotency-Key header to make retries safe; the same text to the same place within 10 minutes is ' +
          'refused (409) unless allow_duplicate is true.',
        tags: ['publish'],
        headers: publishHeadersSchema,
        body: publishBodySchema,
        response: { 200: publicationSchema, ...problemResponses(400, 401, 402, 403, 404, 409, 413, 415, 422, 429, 502, 503, 504) },
      },
    },
    async (request, reply) => {
      // The schema has checked the header's form, so it always names a key: `"k1"` and `k1` are one.
      const header = request.headers['idempotency-key'];
      const key = header === undefined ? undefined : (parseIdempotencyKey(header) ?? undefined);
      const { publication, replayed } = await publish.publish(callerOf(request), request.body, key);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return publication;
    },
  );

  app.get(
    '/publications/:id',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'One publication of this account (free)',
        tags: ['publish'],
        params: publicationParamsSchema,
        response: { 200: publicationSchema, ...problemResponses(401, 403, 404) },
      },
    },
    async (request) => publish.get(callerOf(request).accountId, request.params.id),
  );
};
