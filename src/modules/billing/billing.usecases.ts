import { plural } from '../../shared/text.ts';
import type { Logger } from 'pino';
import type Stripe from 'stripe';
import type { BillingConfig } from '../../shared/config/billing.ts';
import { newId } from '../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import type { Database } from '../../shared/db/database.ts';
import { isAppError, type AppError } from '../../shared/errors.ts';
import { creditsErrors } from '../credits/credits.errors.ts';
import { formatMoney } from '../../shared/money.ts';
import type { Via } from '../../shared/via.ts';
import type { StripeClient } from '../../integrations/stripe/stripe.client.ts';
import { billingErrors } from './billing.errors.ts';
import { applyStripeEvent, HANDLED_EVENTS, type EventOutcome } from './billing.events.usecases.ts';
import { createBillingRepository } from './billing.repository.ts';
import { createAutoTopups, type TopupDeps } from './billing.topup.usecases.ts';

export interface BillingDeps {
  db: Database;
  /** Where a failed auto top-up's `credits.topup_failed` goes (the account's own endpoint). */
  webhooks: TopupDeps['webhooks'];
  clock: () => Date;
  random: RandomBytes;
  /** null: this instance sells nothing (no STRIPE_SECRET_KEY). */
  stripe: StripeClient | null;
  config: BillingConfig;
  publicUrl: string | null;
  log: Pick<Logger, 'info' | 'warn'>;
}

/** A payment as the API and the dashboard show it. */
const paymentView = (row: NonNullable<Awaited<ReturnType<ReturnType<typeof createBillingRepository>['byId']>>>) => ({
  id: row.id,
  status: row.status,
  source: row.source,
  credits: Number(row.credits),
  amount: Number(row.amount),
  currency: row.currency,
  price: formatMoney(Number(row.amount), row.currency),
  credited: Number(row.credited) > 0,
  created_at: row.created_at,
  paid_at: row.paid_at,
});

export type PaymentView = ReturnType<typeof paymentView>;

/** How far a webhook's signature time may be from our clock, either way: Stripe's own default. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Buying credits with Stripe: Checkout Sessions for packs, and Stripe's events applied to the ledger. */
export function createBillingUsecases(deps: BillingDeps) {
  const { db, clock, random, stripe, config, log } = deps;
  const repo = createBillingRepository(db);
  const now = () => clock().toISOString();
  const buyUrl = deps.publicUrl && stripe ? `${deps.publicUrl}/dashboard/credits` : null;

  /** Where to buy credits, or whom to ask for them; a refusal adds "and try again." (`refusalEnding`). */
  function whereToGetCredits(): string {
    if (buyUrl) return `Buy credits at ${buyUrl}`;
    return config.contact ? `Ask ${config.contact} for credits` : 'Ask the operator of this service for credits';
  }
  const refusalEnding = () => `${whereToGetCredits()} and try again.`;

  function requireStripe(): StripeClient {
    if (!stripe) throw billingErrors.notConfigured(refusalEnding());
    return stripe;
  }

  const usecases = {
    /** The packs on sale (none without Stripe), and the currency they are priced in. */
    offer: () => ({ packs: stripe ? config.packs : [], currency: config.currency, contact: config.contact, buyUrl }),

    /**
     * The packs on sale as GET /credits/packs lists them (none on a server that sells nothing), with
     * the page that sells them and whom to ask for credits otherwise.
     */
    packs: () => ({
      packs: (stripe ? config.packs : []).map((pack) => ({
        credits: pack.credits,
        amount: pack.amount,
        currency: config.currency,
        price: formatMoney(pack.amount, config.currency),
      })),
      buy_url: buyUrl,
      contact: config.contact,
    }),

    whereToGetCredits,

    /** A 402 credits.insufficient that ends with how to get credits, with `buy_url` when they are on sale; any other error as it is. */
    explainRefusal<E>(error: E): E | AppError {
      if (!isAppError(error) || error.code !== 'credits.insufficient') return error;
      const { balance, required } = error.extra as { balance: number; required: number };
      return creditsErrors.insufficient(balance, required, refusalEnding(), buyUrl ?? undefined);
    },

    /**
     * Opens a Stripe Checkout page for the pack of `credits` and answers where to send the buyer.
     * The payment row comes first, so the session (created with our own idempotency key, derived
     * from it) always has a row to be credited against when its webhook arrives.
     */
    async checkout(accountId: string, credits: number, options: { via: Via; saveCard?: { customerId: string } }) {
      const client = requireStripe();
      const pack = config.packs.find((candidate) => candidate.credits === credits);
      if (!pack) throw billingErrors.unknownPack(config.packs);
      const at = now();
      const id = newId('pay', clock(), random);
      await repo.insert({ id, account_id: accountId, source: 'checkout', status: 'open', credits, amount: pack.amount, currency: config.currency, via: options.via, created_at: at, updated_at: at });
      const metadata = { account_id: accountId, payment_id: id, credits: String(credits), ...(options.saveCard ? { save_card: '1' } : {}) };
      let session: Stripe.Checkout.Session;
      try {
        session = await client.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [{ quantity: 1, price_data: { currency: config.currency, unit_amount: pack.amount, product_data: { name: plural(credits, 'credit') } } }],
            client_reference_id: accountId,
            metadata,
            payment_intent_data: { metadata, ...(options.saveCard ? { setup_future_usage: 'off_session' as const } : {}) },
            ...(options.saveCard ? { customer: options.saveCard.customerId } : {}),
            success_url: `${deps.publicUrl}/dashboard/credits/return?payment=${id}`,
            cancel_url: `${deps.publicUrl}/dashboard/credits?checkout=cancelled`,
          },
          { idempotencyKey: `checkout-${id}` },
        );
      } catch (error) {
        await repo.fail(id, 'Stripe did not open a checkout page.', now());
        log.warn({ err: error, payment_id: id }, 'creating a Stripe Checkout Session failed');
        throw billingErrors.checkoutFailed(error);
      }
      await repo.attachSession(id, { id: session.id, url: session.url! }, now());
      return {
        payment: paymentView({ ...(await repo.byId(id))! }),
        url: session.url!,
        expires_at: new Date(session.expires_at * 1000).toISOString(),
      };
    },

    /** One payment of the account (the return page polls it until the webhook has credited it). */
    async payment(accountId: string, id: string): Promise<PaymentView> {
      const row = await repo.byId(id);
      if (!row || row.account_id !== accountId) throw billingErrors.paymentNotFound();
      return paymentView(row);
    },

    payments: async (accountId: string, limit = 20): Promise<PaymentView[]> => (await repo.ofAccount(accountId, limit)).map(paymentView),

    /**
     * The event in a webhook delivery, if Stripe signed this very body within 5 minutes of our clock,
     * either way; else 400. Stripe's library refuses only the old side: a signature dated ahead is
     * no clock skew Stripe has, and accepting one would let a leaked signed body be replayed later.
     */
    verify(rawBody: Buffer, signature: string | undefined): Stripe.Event {
      const client = requireStripe();
      if (!signature) throw billingErrors.invalidSignature();
      const receivedAt = clock().getTime();
      const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1]);
      if (!(signedAt * 1000 <= receivedAt + SIGNATURE_TOLERANCE_SECONDS * 1000)) throw billingErrors.invalidSignature();
      try {
        return client.webhooks.constructEvent(rawBody, signature, config.stripe!.webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, receivedAt);
      } catch {
        throw billingErrors.invalidSignature();
      }
    },

    async apply(event: Stripe.Event): Promise<EventOutcome> {
      const outcome = await applyEvent(event);
      log.info({ stripe_event: event.id, type: event.type, outcome }, 'stripe event');
      return outcome;
    },

    /**
     * Applies every event of the handled types Stripe created since `since`, oldest first: what a
     * webhook missed (an outage longer than Stripe's retries, a lost endpoint). Safe to run again,
     * and beside live webhooks: each event only brings payments to what their facts say.
     */
    async reconcile(since: Date): Promise<{ seen: number; applied: number }> {
      const client = requireStripe();
      const events: Stripe.Event[] = [];
      const list = client.events.list({ created: { gte: Math.floor(since.getTime() / 1000) }, types: [...HANDLED_EVENTS], limit: 100 });
      for await (const event of list) events.push(event);
      let applied = 0;
      for (const event of events.reverse()) if ((await applyEvent(event)) === 'applied') applied++;
      return { seen: events.length, applied };
    },
  };

  const autoTopup = createAutoTopups({ ...deps, openCheckout: usecases.checkout });

  /** An event applied to the ledger; a paid Checkout that was to save a card then turns auto top-up on. */
  async function applyEvent(event: Stripe.Event): Promise<EventOutcome> {
    const outcome = await applyStripeEvent(db, event, now());
    // From the webhook or from reconcile: someone made a payment look like one of ours.
    if (outcome === 'refused') log.warn({ stripe_event: event.id, type: event.type }, 'a Stripe event does not match the payment it names: nothing credited');
    if (outcome !== 'applied' || (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded')) return outcome;
    const session = event.data.object;
    const payment = session.metadata?.save_card === '1' ? await repo.bySession(session.id) : undefined;
    const paymentIntentId = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
    const customer = typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
    if (payment && paymentIntentId) await autoTopup.saveCard(payment.account_id, { paymentId: payment.id, customer, paymentIntentId });
    return outcome;
  }

  return { ...usecases, autoTopup };
}

export type BillingUsecases = ReturnType<typeof createBillingUsecases>;
