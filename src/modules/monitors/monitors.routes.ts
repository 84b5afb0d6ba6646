import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import { invalidCursor } from '../../shared/http/pagination.ts';
import { webhooksErrors } from '../webhooks/webhooks.errors.ts';
import { monitorsErrors } from './monitors.errors.ts';
import { callerOf } from '../keys/keys.hooks.ts';
import {
  matchesQuerySchema,
  matchListSchema,
  monitorBodySchema,
  monitorListSchema,
  monitorParamsSchema,
  monitorPatchSchema,
  monitorSchema,
  pageQuerySchema,
} from './monitors.schemas.ts';
import type { MonitorsUsecases } from './monitors.usecases.ts';
import { matchingRuleErrors } from '../../shared/http/validation-messages.ts';

const PRICE_NOTE =
  'Free: only stored matches cost credits (PRICE_MONITOR_MATCH per delivered match, PRICE_JUDGE per match judged for a monitor with an intent), so this never answers 402.';

/** What a change of a monitor's settings can be refused for, beyond its schema. */
const SAMPLE_PREVIEW = { matched_last_hour: 412, items_in_window: 180_000, window_started_at: '2026-11-30T11:00:00.000Z', estimated_per_day: 9888, daily_limit: 2000, reason: null };
const SETTINGS_ERRORS = [
  ...matchingRuleErrors('The monitor'),
  monitorsErrors.volumeTooHigh(SAMPLE_PREVIEW),
  monitorsErrors.streamOff(),
  monitorsErrors.tooManySubreddits(500, 498, 503),
  monitorsErrors.judgeNotConfigured(),
  webhooksErrors.invalidUrl('must not point at a private, link-local or reserved address'),
  webhooksErrors.notConfigured(),
];

const created = (reply: FastifyReply, monitor: { id: string }) => reply.code(201).header('location', `/api/v1/monitors/${monitor.id}`).send(monitor);

export const monitorsRoutes: FastifyPluginAsyncTypebox<{ monitors: MonitorsUsecases }> = async (app, { monitors }) => {
  app.post(
    '/monitors',
    {
      // Idempotent: a retried create must not make a second monitor, which would store and charge every match twice.
      config: {
        scope: 'monitors',
        errors: [monitorsErrors.notConfigured(), monitorsErrors.limitReached(50, 50), ...SETTINGS_ERRORS],
        idempotent: { replay: async (request, reply, id) => created(reply, await monitors.get(callerOf(request).accountId, id)) },
      },
      schema: {
        summary: 'Watch subreddits for new posts and comments that contain keywords',
        operationId: 'createMonitor',
        description:
          `${PRICE_NOTE} Send an Idempotency-Key header to make retries safe. subreddits ["all"] watches all of Reddit (with ` +
          'exclude_subreddits), served by the site-wide stream. The answer has a `preview`: what the rule would have matched in the ' +
          "stream's last hour; above the server's daily limit the monitor is refused (422 monitors.volume_too_high) unless confirm_volume is true.",
        tags: ['monitors'],
        body: monitorBodySchema,
        response: { 201: monitorSchema },
      },
    },
    async (request, reply) => {
      const { accountId, via } = callerOf(request);
      return created(reply, await monitors.create(accountId, request.body, { via, idempotency: request.idempotency }));
    },
  );

  app.get(
    '/monitors',
    {
      config: { scope: 'read', errors: [invalidCursor()] },
      schema: {
        summary: "This account's monitors, newest first, with their health (free, cursor-paginated)",
        operationId: 'listMonitors',
        description:
          'Every monitor, active and paused, with its health. Pass `next_cursor` back as `cursor` for the next page.',
        tags: ['monitors'],
        querystring: pageQuerySchema,
        response: { 200: monitorListSchema },
      },
    },
    async (request) => monitors.list(callerOf(request).accountId, { limit: request.query.limit ?? 20, cursor: request.query.cursor }),
  );

  app.get(
    '/monitors/:id',
    {
      config: { scope: 'read', errors: [monitorsErrors.notFound()] },
      schema: {
        summary: 'One monitor of this account, with its health (free)',
        operationId: 'getMonitor',
        description:
          'The monitor\'s settings, whether it is paused and why, and its health: how Reddit treats this service\'s app, each subreddit\'s state and last read, and any gaps.',
        tags: ['monitors'],
        params: monitorParamsSchema,
        response: { 200: monitorSchema },
      },
    },
    async (request) => monitors.get(callerOf(request).accountId, request.params.id),
  );

  app.patch(
    '/monitors/:id',
    {
      config: { scope: 'monitors', errors: [monitorsErrors.notFound(), ...SETTINGS_ERRORS] },
      schema: {
        summary: 'Change any field of a monitor, or pause or resume it',
        operationId: 'updateMonitor',
        description:
          `${PRICE_NOTE} Fields left out keep their value. Resuming watches from that moment: posts and comments published while the monitor was paused are never matched. ` +
          'The answer has a `preview` of the monitor as changed; a change of what it matches (or a resume) whose daily estimate is above the ' +
          "server's limit is refused (422 monitors.volume_too_high) unless confirm_volume is true.",
        tags: ['monitors'],
        params: monitorParamsSchema,
        body: monitorPatchSchema,
        response: { 200: monitorSchema },
      },
    },
    async (request) => monitors.update(callerOf(request).accountId, request.params.id, request.body),
  );

  app.delete(
    '/monitors/:id',
    {
      config: { scope: 'monitors', errors: [monitorsErrors.notFound()] },
      schema: {
        summary: 'Delete a monitor and its stored matches (its ledger entries stay)',
        operationId: 'deleteMonitor',
        description:
          'Stops the monitor at once and deletes its matches; the credits they cost stay in the ledger. Free.',
        tags: ['monitors'],
        params: monitorParamsSchema,
        response: { 204: Type.Null({ description: 'Deleted' }) },
      },
    },
    async (request, reply) => {
      await monitors.remove(callerOf(request).accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/monitors/:id/matches',
    {
      config: {
        scope: 'read',
        errors: [monitorsErrors.notFound(), monitorsErrors.matchNotFound(), monitorsErrors.cursorWithAfter(), invalidCursor()],
      },
      schema: {
        summary: "A monitor's matches: newest first, or with `after` everything stored after a match, oldest first (free)",
        operationId: 'listMonitorMatches',
        description:
          'Keep the id of the last match you read and ask with after=<that id>: each match is returned once, in the order it ' +
          'was stored, and none is skipped. `after` and `cursor` cannot be combined (400 request.invalid_query). Matches judged ' +
          'below the monitor\'s `min_relevance` are left out unless include=filtered; raising or lowering the bar re-sorts them, ' +
          'so a match can appear here again below a cursor you already passed.',
        tags: ['monitors'],
        params: monitorParamsSchema,
        querystring: matchesQuerySchema,
        response: { 200: matchListSchema },
      },
    },
    async (request) =>
      monitors.matches(callerOf(request).accountId, request.params.id, {
        limit: request.query.limit ?? 20,
        cursor: request.query.cursor,
        after: request.query.after,
        filtered: request.query.include === 'filtered' ? 'with' : 'without',
      }),
  );
};
