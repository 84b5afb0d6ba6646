import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RedditTimeoutError } from '../../integrations/reddit/reddit.user.ts';
import { outcomeSamples } from '../../shared/outcomes.ts';
import { connectionsErrors } from '../connections/connections.errors.ts';
import { creditsErrors } from '../credits/credits.errors.ts';
import { publishErrors } from './publish.errors.ts';
import { committingPublication } from './publish.usecases.ts';
import { parseIdempotencyKey } from '../idempotency/idempotency.schemas.ts';
import { callerOf } from '../keys/keys.hooks.ts';
import { publicationParamsSchema, publicationSchema, publishBodySchema, publishHeadersSchema } from './publish.schemas.ts';
import type { PublishUsecases } from './publish.usecases.ts';

const SAMPLE_ID = 'pub_7e1f3a5c9b2d4e6f8a0c1e3b5d7f';

export const publishRoutes: FastifyPluginAsyncTypebox<{ publish: PublishUsecases }> = async (app, { publish }) => {
  app.post(
    '/publish',
    {
      config: {
        scope: 'publish',
        errors: [
          publishErrors.idempotencyMismatch(),
          publishErrors.inProgress(SAMPLE_ID),
          publishErrors.generationNotFound(),
          publishErrors.generationNotReady('running'),
          connectionsErrors.notConfigured(['REDDIT_CLIENT_ID']),
          connectionsErrors.notConnected(),
          connectionsErrors.revoked(),
          connectionsErrors.redditUnavailable(new Error('Reddit answered 500')),
          connectionsErrors.redditUnavailable(new RedditTimeoutError('no answer within 10 s')),
          creditsErrors.insufficient(0, 10),
          creditsErrors.keyLimitReached({ limit: 500, spent: 495, required: 10, resetsAt: '2026-12-01T00:00:00.000Z' }),
          publishErrors.duplicate(SAMPLE_ID),
          publishErrors.rejected(SAMPLE_ID, 'SUBREDDIT_NOTALLOWED', "you aren't allowed to post there.", 'sr'),
          publishErrors.rateLimited(SAMPLE_ID, 540, 'you are doing that too much. try again in 9 minutes.'),
          publishErrors.forbidden(SAMPLE_ID, 'Reddit answered 403'),
          publishErrors.redditUnavailable(SAMPLE_ID, 'Reddit answered 500', 500),
          publishErrors.outcomeUnknown(SAMPLE_ID, 504, true),
          publishErrors.outcomeUnknown(SAMPLE_ID, 504, false),
          publishErrors.outcomeUnknown(SAMPLE_ID, 409, true),
          ...outcomeSamples(committingPublication(SAMPLE_ID, 10)),
        ],
      },
      schema: {
        summary: "Post a comment or a self post to Reddit as the account's connected Reddit user (billable)",
        operationId: 'createPublication',
        description:
          'Price: PRICE_PUBLISH, reserved before Reddit is called and refunded on any refusal, so only accepted posts cost. ' +
          'Send an Idempotency-Key header to make retries safe; the same text to the same place within 10 minutes is ' +
          'refused (409) unless allow_duplicate is true.',
        tags: ['publish'],
        headers: publishHeadersSchema,
        body: publishBodySchema,
        response: { 200: publicationSchema },
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
      config: { scope: 'read', errors: [publishErrors.notFound()] },
      schema: {
        summary: 'One publication of this account (free)',
        operationId: 'getPublication',
        description:
          'Where a publish stands: running, published (with Reddit\'s id and permalink), failed (refunded), or unknown while the service checks whether Reddit posted it.',
        tags: ['publish'],
        params: publicationParamsSchema,
        response: { 200: publicationSchema },
      },
    },
    async (request) => publish.get(callerOf(request).accountId, request.params.id),
  );
};
