import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RedditTimeoutError } from '../../integrations/reddit/reddit.user.ts';
import { outcomeSamples } from '../../shared/outcomes.ts';
import { connectionsErrors } from '../connections/connections.errors.ts';
import { creditsErrors } from '../credits/credits.errors.ts';
import { publishErrors } from './publish.errors.ts';
import { committingPublication } from './publish.usecases.ts';
import { optionalIdempotencyKey } from '../idempotency/idempotency.schemas.ts';
import { callerOf } from '../keys/keys.hooks.ts';
import { publicationParamsSchema, publicationSchema, publishBodySchema, publishHeadersSchema } from './publish.schemas.ts';
import type { PublishUsecases } from './publish.usecases.ts';

const SAMPLE_ID = 'pub_7e1f3a5c9b2d4e6f8a0c1e3b5d7f';
/** An earlier publication that a pace rail waits for, ten minutes before it leaves the window. */
const SAMPLE_BLOCKING = { publicationId: SAMPLE_ID, retryAt: '2026-11-02T10:20:00.000Z', now: '2026-11-02T10:10:00.000Z' };

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
          publishErrors.duplicate(SAMPLE_ID, 24),
          publishErrors.secondReply(SAMPLE_ID, 't3_abc123'),
          publishErrors.subredditPace(SAMPLE_BLOCKING, 'r/node', { limit: 1, minutes: 10 }),
          publishErrors.hourlyPace(SAMPLE_BLOCKING, 5),
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
          'Price: PRICE_PUBLISH, held before Reddit is called and charged only when Reddit accepts it; a refusal releases ' +
          'the hold. Send an Idempotency-Key header to make retries safe. The rails refuse, before anything is recorded or ' +
          'held: the same text by this account within 24 hours (409 publish.duplicate, unless allow_duplicate), a second ' +
          'reply in a thread (409 publish.second_reply, unless allow_second_reply), more than 1 publication per subreddit per ' +
          '10 minutes (429 publish.subreddit_pace) or 5 per hour (429 publish.hourly_pace); the operator sets these figures.',
        tags: ['publish'],
        headers: publishHeadersSchema,
        body: publishBodySchema,
        response: { 200: publicationSchema },
      },
    },
    async (request, reply) => {
      // The schema has checked the header's form, so it always names a key: `"k1"` and `k1` are one.
      const key = optionalIdempotencyKey(request.headers['idempotency-key']);
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
          'Where a publish stands: running, published (with Reddit\'s id and permalink), failed (nothing charged), or unknown while the service checks whether Reddit posted it.',
        tags: ['publish'],
        params: publicationParamsSchema,
        response: { 200: publicationSchema },
      },
    },
    async (request) => publish.get(callerOf(request).accountId, request.params.id),
  );
};
