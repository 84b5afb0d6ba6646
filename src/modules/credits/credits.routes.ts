import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { pageQuerySchema, problemResponses } from '../../shared/http/schemas.ts';
import { callerOf } from '../keys/keys.hooks.ts';
import type { CreditsUsecases } from './credits.usecases.ts';

const ledgerEntrySchema = Type.Object({
  id: Type.Integer(),
  type: Type.Union([Type.Literal('grant'), Type.Literal('charge'), Type.Literal('refund')]),
  amount: Type.Integer({ description: 'Signed: charges are negative' }),
  balance_after: Type.Integer(),
  key: Type.Union([Type.Object({ name: Type.String(), prefix: Type.String() }), Type.Null()]),
  scrape_id: Type.Union([Type.String(), Type.Null()]),
  generation_id: Type.Union([Type.String(), Type.Null()]),
  publication_id: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'As written when the move was made' }),
  description: Type.String({ description: 'One line saying what the entry was for, e.g. "Scrape of r/node: 12 posts"' }),
  created_at: Type.String({ format: 'date-time' }),
});

/** Reads of the account's own standing: free, and never 402, so an account at zero still sees it. */
export const creditsRoutes: FastifyPluginAsyncTypebox<{ credits: CreditsUsecases }> = async (app, { credits }) => {
  app.get(
    '/balance',
    {
      schema: {
        summary: 'Current credit balance (free)',
        tags: ['credits'],
        response: { 200: Type.Object({ balance: Type.Integer() }), ...problemResponses(401) },
      },
    },
    // Read in the same statement that checked the key: current as of this request.
    async (request) => ({ balance: callerOf(request).available }),
  );

  app.get(
    '/usage',
    {
      schema: {
        summary: 'Ledger entries, newest first (free, cursor-paginated)',
        tags: ['credits'],
        querystring: pageQuerySchema,
        response: {
          200: Type.Object({
            data: Type.Array(ledgerEntrySchema),
            has_more: Type.Boolean(),
            next_cursor: Type.Union([Type.String(), Type.Null()]),
          }),
          ...problemResponses(400, 401, 422),
        },
      },
    },
    async (request) =>
      credits.usage(callerOf(request).accountId, { limit: request.query.limit ?? 20, cursor: request.query.cursor }),
  );
};
