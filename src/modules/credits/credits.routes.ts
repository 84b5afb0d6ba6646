import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { invalidCursor } from '../../shared/http/pagination.ts';
import { pageQuerySchema } from '../../shared/http/schemas.ts';
import { creditsErrors } from './credits.errors.ts';
import { callerOf } from '../keys/keys.hooks.ts';
import type { CreditsUsecases } from './credits.usecases.ts';

const ledgerEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    type: Type.Union(
      [
        Type.Literal('grant'),
        Type.Literal('charge'),
        Type.Literal('refund'),
        Type.Literal('purchase'),
        Type.Literal('clawback'),
        Type.Literal('reinstatement'),
        Type.Literal('owed_settlement'),
      ],
      {
        description:
          'grant: from the operator; charge and refund: paying for work and giving it back; purchase: credits bought; ' +
          'clawback: taken back for a payment refunded or disputed; reinstatement: a dispute won; owed_settlement: credits coming in paying what was owed',
      },
    ),
    amount: Type.Integer({ description: 'Signed: charges are negative' }),
    balance_after: Type.Integer(),
    key: Type.Union([Type.Object({ name: Type.String(), prefix: Type.String() }), Type.Null()]),
    scrape_id: Type.Union([Type.String(), Type.Null()]),
    generation_id: Type.Union([Type.String(), Type.Null()]),
    publication_id: Type.Union([Type.String(), Type.Null()]),
    payment: Type.Union(
      [
        Type.Object({
          id: Type.String(),
          amount: Type.Integer({ description: 'What was paid, in the currency\'s smallest unit (cents for usd)' }),
          currency: Type.String({ description: 'ISO 4217, lower case' }),
          source: Type.Union([Type.Literal('checkout'), Type.Literal('topup')], { description: 'checkout: bought on a Checkout page; topup: an auto top-up' }),
        }),
        Type.Null(),
      ],
      { description: 'The payment a purchase, clawback, reinstatement or owed settlement is about; null otherwise' },
    ),
    owed_change: Type.Integer({ description: 'How the entry moved what the account owes: positive when a clawback found the credits spent, negative when paid' }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'As written when the move was made' }),
    description: Type.String({ description: 'One line saying what the entry was for, e.g. "Scrape of r/node: 12 posts"' }),
    via: Type.Union([Type.Literal('api'), Type.Literal('mcp'), Type.Literal('dashboard'), Type.Literal('monitor'), Type.Null()], {
      description:
        'Through which interface the call that this entry pays for came: api, mcp or dashboard; monitor for what a monitor spent by itself (its matches, the drafts it wrote for them); null for grants, operator moves and entries older than this field',
    }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'UsageEntry' },
);

const dailyQuerySchema = Type.Object(
  {
    key: Type.Optional(
      Type.String({
        pattern: '^ak_live_[0-9a-f]{8}$',
        'x-rule': 'must be a key prefix as the key list shows it: ak_live_ and 8 hex digits',
        description: 'A key prefix as the key list shows it; omitted: the whole account',
      }),
    ),
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 30, description: 'Days to return, ending today (UTC)' })),
  },
  { additionalProperties: false },
);

const dailyUsageSchema = Type.Object(
  {
    key: Type.Union([Type.Object({ name: Type.String(), prefix: Type.String() }), Type.Null()], { description: 'null: the whole account' }),
    days: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date', description: 'A UTC day' }),
        credits: Type.Integer({ description: 'Charges less refunds made that day' }),
      }),
    ),
    total: Type.Integer({ description: 'The sum of the days' }),
    month_to_date: Type.Union(
      [
        Type.Object({
          spent: Type.Integer({ description: 'This UTC month, unfinished holds included: the figure the limit is checked against' }),
          limit: Type.Union([Type.Integer(), Type.Null()], { description: 'The key\'s monthly credit limit; null: none' }),
          resets_at: Type.String({ format: 'date-time', description: 'The first instant of the next UTC month' }),
        }),
        Type.Null(),
      ],
      { description: 'The key\'s month so far; null without `key`' },
    ),
  },
  { title: 'DailyUsage' },
);

/** Reads of the account's own standing: free, and never 402, so an account at zero still sees it. */
export const creditsRoutes: FastifyPluginAsyncTypebox<{ credits: CreditsUsecases }> = async (app, { credits }) => {
  app.get(
    '/balance',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Current credit balance (free)',
        operationId: 'getBalance',
        description:
          'The credits this account can spend now: its balance less what unfinished scrapes and publications hold. Free; never 402, so an account at zero still sees it.',
        tags: ['credits'],
        response: {
          200: Type.Object(
            {
              balance: Type.Integer({ description: 'Credits spendable now' }),
              owed: Type.Integer({
                description: 'Credits a refund or dispute could not take back because they were spent; the next credits bought or granted pay them first',
              }),
            },
            { title: 'Balance' },
          ),
        },
      },
    },
    async (request) => credits.standing(callerOf(request).accountId),
  );

  app.get(
    '/usage',
    {
      config: { scope: 'read', errors: [invalidCursor()] },
      schema: {
        summary: 'Ledger entries, newest first (free, cursor-paginated)',
        operationId: 'listUsage',
        description:
          'Every change of the balance (grants, charges, refunds), newest first, each with the key that made it and what it was for. The balance equals the sum of the ledger. Pass `next_cursor` back as `cursor` for the next page.',
        tags: ['credits'],
        querystring: pageQuerySchema,
        response: {
          200: Type.Object(
            { data: Type.Array(ledgerEntrySchema), has_more: Type.Boolean(), next_cursor: Type.Union([Type.String(), Type.Null()]) },
            { title: 'UsageList' },
          ),
        },
      },
    },
    async (request) =>
      credits.usage(callerOf(request).accountId, { limit: request.query.limit ?? 20, cursor: request.query.cursor }),
  );

  app.get(
    '/usage/daily',
    {
      config: { scope: 'read', errors: [creditsErrors.keyNotFound()] },
      schema: {
        summary: 'Credits spent per UTC day, by the account or one of its keys (free)',
        operationId: 'getDailyUsage',
        description:
          'Net credits per day (charges less refunds, each on the day of its ledger entry), oldest first ending today, ' +
          'days without spend included. With `key`, that key\'s days and its spend this month against its monthly limit.',
        tags: ['credits'],
        querystring: dailyQuerySchema,
        response: { 200: dailyUsageSchema },
      },
    },
    async (request) =>
      credits.dailyUsage(callerOf(request).accountId, { prefix: request.query.key, days: request.query.days ?? 30 }),
  );
};
