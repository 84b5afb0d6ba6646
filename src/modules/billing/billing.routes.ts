import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { callerOf } from '../keys/keys.hooks.ts';
import { billingErrors } from './billing.errors.ts';
import type { BillingUsecases } from './billing.usecases.ts';

const paymentSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union([Type.Literal('open'), Type.Literal('pending'), Type.Literal('paid'), Type.Literal('failed'), Type.Literal('expired')], {
      description: 'open: waiting on the checkout page; pending: an auto top-up being charged; paid; failed; expired: the page lapsed unpaid',
    }),
    source: Type.Union([Type.Literal('checkout'), Type.Literal('topup')]),
    credits: Type.Integer(),
    amount: Type.Integer({ description: "The price in the currency's smallest unit (cents for usd)" }),
    currency: Type.String({ description: 'ISO 4217, lower case' }),
    price: Type.String({ description: 'The price for people, e.g. "5.00 USD"' }),
    credited: Type.Boolean({ description: 'Whether the credits are in the balance: true once Stripe\'s webhook has landed' }),
    created_at: Type.String({ format: 'date-time' }),
    paid_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'Payment' },
);

const SAMPLE_PAYMENT = 'pay_019abc0123450123456789abcdef';

const packsSchema = Type.Object(
  {
    packs: Type.Array(
      Type.Object(
        {
          credits: Type.Integer({ minimum: 1, description: 'What the pack adds to the balance; the `credits` to send to POST /credits/checkout' }),
          amount: Type.Integer({ description: "The price in the currency's smallest unit (cents for usd)" }),
          currency: Type.String({ description: 'ISO 4217, lower case' }),
          price: Type.String({ description: 'The price for people, e.g. "5.00 USD"' }),
        },
        { title: 'CreditPack' },
      ),
      { description: 'Cheapest first; empty on a server that sells no credits' },
    ),
    buy_url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description: "The dashboard's Credits page, where a person buys them; null when this server sells none or has no PUBLIC_URL",
    }),
    contact: Type.Union([Type.String(), Type.Null()], {
      description: 'Whom to ask for credits (an email address or a URL) when none are on sale; null: the operator of this server',
    }),
  },
  { title: 'CreditPacks' },
);

/** Buying credits through the API (scope `billing`), the packs on sale and a payment (scope `read`). Registered in api.ts. */
export const billingApiRoutes: FastifyPluginAsyncTypebox<{ billing: BillingUsecases }> = async (app, { billing }) => {
  // With a key, as every /api/v1 call: the order of checks holds for each route, and the packs are a
  // question of someone about to buy, who has one (the dashboard's Credits page shows them too).
  app.get(
    '/credits/packs',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'The packs of credits on sale (free)',
        operationId: 'listCreditPacks',
        description:
          'What POST /credits/checkout sells, each pack by its credits and its price. Empty on a server that sells no credits, ' +
          'whose `contact` says whom to ask instead. Needs the `read` scope.',
        tags: ['credits'],
        response: { 200: packsSchema },
      },
    },
    async () => billing.packs(),
  );

  app.post(
    '/credits/checkout',
    {
      config: { scope: 'billing', errors: [billingErrors.notConfigured('Ask the operator of this service for credits.'), billingErrors.unknownPack([]), billingErrors.checkoutFailed(null)] },
      schema: {
        summary: 'Open a Stripe Checkout page for a pack of credits (free)',
        operationId: 'createCheckout',
        description:
          'Answers the URL of a Stripe Checkout page for the pack with `credits`; send the buyer there. The credits are added when ' +
          "Stripe's webhook says the payment succeeded (usually seconds after paying); poll GET /credits/payments/{id} until `credited`. " +
          'A page not paid lapses after 24 hours. Calling twice opens two pages; only a paid one adds credits. Needs the `billing` scope.',
        tags: ['credits'],
        body: Type.Object(
          { credits: Type.Integer({ minimum: 1, description: 'The pack to buy, named by its credits (GET /credits/packs lists the packs)' }) },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object(
            { payment: paymentSchema, url: Type.String({ format: 'uri', description: "Stripe's checkout page" }), expires_at: Type.String({ format: 'date-time' }) },
            { title: 'Checkout' },
          ),
        },
      },
    },
    async (request, reply) => {
      const { accountId, via } = callerOf(request);
      const checkout = await billing.checkout(accountId, request.body.credits, { via });
      return reply.code(201).header('location', `/api/v1/credits/payments/${checkout.payment.id}`).send(checkout);
    },
  );

  app.get(
    '/credits/payments/:id',
    {
      config: { scope: 'read', errors: [billingErrors.paymentNotFound()] },
      schema: {
        summary: 'One payment of this account (free)',
        operationId: 'getPayment',
        description: 'A purchase of credits: open, paid (and `credited` once the webhook landed), failed or expired.',
        tags: ['credits'],
        params: Type.Object({ id: Type.String({ maxLength: 64, examples: [SAMPLE_PAYMENT] }) }),
        response: { 200: paymentSchema },
      },
    },
    async (request) => billing.payment(callerOf(request).accountId, request.params.id),
  );
};

/**
 * `POST /webhooks/stripe`: Stripe's events, verified against the raw bytes of the body (a parsed and
 * re-serialised body would not match the signature), so this plugin reads every body as a Buffer.
 * Outside /api/v1: Stripe carries no key; the signature is its credential. Unknown types answer 200.
 */
export const stripeWebhookRoutes: FastifyPluginAsync<{ billing: BillingUsecases }> = async (app, { billing }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // Stripe sets no size for its events; a refunded charge with its refunds runs to tens of KiB, past the API's 64 KiB limit.
  app.post('/webhooks/stripe', { schema: { hide: true }, bodyLimit: 1024 * 1024 }, async (request) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const signature = request.headers['stripe-signature'];
    const event = billing.verify(body, typeof signature === 'string' ? signature : undefined);
    return { received: true, outcome: await billing.apply(event) };
  });
};
