import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalidCursor } from '../../../shared/http/pagination.ts';
import { callerOf } from '../../keys/keys.hooks.ts';
import type { MatchStatus } from '../monitors.tables.ts';
import { inboxErrors } from './inbox.errors.ts';
import { inboxItemSchema, inboxListSchema, inboxQuerySchema, matchParamsSchema, matchPatchSchema } from './inbox.schemas.ts';
import type { InboxUsecases } from './inbox.usecases.ts';

const SAMPLE_MATCH = 'mat_0c4d2e8f1a3b5c7d9e0f2a4b6c8d';

export const inboxRoutes: FastifyPluginAsyncTypebox<{ inbox: InboxUsecases }> = async (app, { inbox }) => {
  app.get(
    '/inbox',
    {
      config: { scope: 'read', errors: [invalidCursor()] },
      schema: {
        summary: "Every delivered match of the account's monitors, with its draft and publication (free)",
        operationId: 'listInbox',
        description:
          'Newest first. Draft a reply with POST /generate {type: "reply", reply_to: <match id>} (the match as stored is the ' +
          'context, no Reddit request), edit it with PATCH /generations/{id}, publish it with POST /publish {generation_id}: the ' +
          'match becomes drafted, then published. Matches judged below their monitor\'s bar are not in the inbox.',
        tags: ['monitors'],
        querystring: inboxQuerySchema,
        response: { 200: inboxListSchema },
      },
    },
    async (request) => {
      const { limit, cursor, monitor_id: monitorId, status, min_relevance: minRelevance } = request.query;
      const statuses = status ? (status.split(',') as MatchStatus[]) : undefined;
      return inbox.list(callerOf(request).accountId, { limit: limit ?? 20, cursor, monitorId, statuses, minRelevance });
    },
  );

  app.get(
    '/matches/:id',
    {
      config: { scope: 'read', errors: [inboxErrors.notFound(SAMPLE_MATCH)] },
      schema: {
        summary: 'One match, as the inbox shows it (free)',
        operationId: 'getMatch',
        description: 'With its status, its newest draft and the publication that answered it; also a match judged below its monitor\'s bar.',
        tags: ['monitors'],
        params: matchParamsSchema,
        response: { 200: inboxItemSchema },
      },
    },
    async (request) => inbox.get(callerOf(request).accountId, request.params.id),
  );

  app.patch(
    '/matches/:id',
    {
      config: { scope: 'monitors', errors: [inboxErrors.notFound(SAMPLE_MATCH), inboxErrors.published(SAMPLE_MATCH)] },
      schema: {
        summary: 'Dismiss a match, or put it back in the inbox (free)',
        operationId: 'updateMatch',
        description: 'A published match stays published (409 matches.published). Dismissing never touches Reddit.',
        tags: ['monitors'],
        params: matchParamsSchema,
        body: matchPatchSchema,
        response: { 200: inboxItemSchema },
      },
    },
    async (request) => inbox.setStatus(callerOf(request).accountId, request.params.id, request.body.status),
  );
};
