import { plural } from '../../shared/text.ts';
import Stripe from 'stripe';
import type { Logger } from 'pino';
import { monthOf, nextMonthStart } from '../../shared/calendar.ts';
import type { BillingConfig } from '../../shared/config/billing.ts';
import { newId } from '../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { transaction, type Database } from '../../shared/db/database.ts';
import { coalescedPasses } from '../../shared/jobs/passes.ts';
import type { StripeClient } from '../../integrations/stripe/stripe.client.ts';
import type { Via } from '../../shared/via.ts';
import type { WebhookEventType } from '../webhooks/webhooks.events.ts';
import { billingErrors } from './billing.errors.ts';
import { createBillingRepository } from './billing.repository.ts';
import { settlePaid } from './billing.settle.usecases.ts';
import { createTopupRepository } from './billing.topup.repository.ts';

export const TOPUP_FAILED_EVENT = 'credits.topup_failed' satisfies WebhookEventType;

interface WebhookQueue {
  enqueue(event: { id: string; accountId: string; scrapeId: null; url: string; type: WebhookEventType; data: unknown }): Promise<string>;
}

/** Opens a Checkout for a pack; with `saveCard`, one that saves the card for auto top-up (billing.usecases.ts). */
type OpenCheckout = (accountId: string, credits: number, options: { via: Via; saveCard?: { customerId: string } }) => Promise<{ url: string; payment: { id: string } }>;

export interface TopupChoice {
  threshold: number;
  packCredits: number;
  monthlyMax: number;
}

export interface TopupDeps {
  openCheckout: OpenCheckout;
  db: Database;
  clock: () => Date;
  random: RandomBytes;
  stripe: StripeClient | null;
  config: BillingConfig;
  webhooks: WebhookQueue;
  log: Pick<Logger, 'warn'>;
}

type Pending = Awaited<ReturnType<ReturnType<typeof createTopupRepository>['pending']>>[number];

/** Bounds a person can mean: a threshold of credits, at most 100 top-ups a month. */
const validChoice = (choice: TopupChoice) =>
  Number.isSafeInteger(choice.threshold) && choice.threshold >= 1 && choice.threshold <= 1_000_000_000 &&
  Number.isSafeInteger(choice.monthlyMax) && choice.monthlyMax >= 1 && choice.monthlyMax <= 100;

/**
 * Auto top-up, opt-in: when the spendable balance falls below the account's threshold, one
 * off-session PaymentIntent buys the chosen pack with the card saved at a Checkout. `flush` runs where
 * the low-balance alerts are sent (after every billable API call and on the worker's 5 s timer): it
 * turns each new crossing into one pending payment (guarded by the crossing flag and the monthly
 * maximum), then charges the pending ones. Each charge carries an idempotency key made from its
 * payment's id, so a crash or a lost answer followed by a retry (here, after a restart, or on another
 * instance) is replayed by Stripe instead of charging the card again.
 */
export function createAutoTopups(deps: TopupDeps) {
  const { db, clock, random, stripe, config, log } = deps;
  const repo = createTopupRepository(db);
  const now = () => clock().toISOString();

  /** One pending payment for a crossing just taken, unless this month's maximum is reached. */
  async function startTopup(accountId: string): Promise<void> {
    await transaction(db, async (trx) => {
      const topups = createTopupRepository(trx);
      const settings = await topups.claimCrossing(accountId);
      const pack = settings && config.packs.find((candidate) => candidate.credits === Number(settings.pack_credits));
      if (!settings || !pack) return;
      const at = now();
      if ((await topups.countSince(accountId, `${monthOf(at)}-01`)) >= settings.monthly_max) return;
      await createBillingRepository(trx).insert({
        id: newId('pay', clock(), random),
        account_id: accountId,
        source: 'topup',
        status: 'pending',
        credits: pack.credits,
        amount: pack.amount,
        currency: config.currency,
        via: null,
        created_at: at,
        updated_at: at,
      });
    });
  }

  async function failed(payment: Pending, error: Stripe.errors.StripeCardError): Promise<void> {
    const at = now();
    const reason = error.code === 'authentication_required'
      ? 'The card needs the holder to confirm the payment (3-D Secure), which cannot happen while nobody is at the checkout page.'
      : `The card was declined${error.decline_code ? ` (${error.decline_code})` : ''}: ${error.message}`;
    const failures = await transaction(db, async (trx) => {
      await createBillingRepository(trx).fail(payment.id, reason, at);
      return createTopupRepository(trx).recordFailure(payment.account_id, reason, at);
    });
    if (!payment.webhook_url) return;
    await deps.webhooks.enqueue({
      // Derived from the payment's id: a second pass over the same failure records one delivery.
      id: `msg_${payment.id.slice('pay_'.length)}`,
      accountId: payment.account_id,
      scrapeId: null,
      url: payment.webhook_url,
      type: TOPUP_FAILED_EVENT,
      data: {
        payment_id: payment.id,
        credits: Number(payment.credits),
        amount: Number(payment.amount),
        currency: payment.currency,
        code: error.code === 'authentication_required' ? 'authentication_required' : 'card_declined',
        reason,
        failures_in_a_row: failures,
        // Always: a card that failed is never charged again until a Checkout replaces it.
        auto_topup_disabled: true,
      },
    });
  }

  async function charge(payment: Pending): Promise<void> {
    if (!stripe || !payment.customer_id || !payment.payment_method_id) {
      await createBillingRepository(db).fail(payment.id, 'No card is saved for auto top-up.', now());
      return;
    }
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripe.paymentIntents.create(
        {
          amount: Number(payment.amount),
          currency: payment.currency,
          customer: payment.customer_id,
          payment_method: payment.payment_method_id,
          off_session: true,
          confirm: true,
          description: `${plural(payment.credits, 'credit')} (auto top-up)`,
          metadata: { payment_id: payment.id, account_id: payment.account_id, credits: String(payment.credits) },
        },
        { idempotencyKey: `topup-${payment.id}` },
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) return failed(payment, error);
      // No answer, or Stripe failing: the payment stays pending and the next pass asks again with the
      // same key, which Stripe answers with the first outcome. Reconcile also finds it by its metadata.
      log.warn({ err: error, payment_id: payment.id }, 'charging an auto top-up failed; it is retried with the same idempotency key');
      return;
    }
    // Anything but succeeded (processing) is credited by the payment_intent.succeeded webhook.
    if (intent.status !== 'succeeded') return;
    const at = now();
    await transaction(db, async (trx) => {
      await settlePaid(trx, { paymentId: payment.id }, intent.id, at);
      await createTopupRepository(trx).recordSuccess(payment.account_id, at);
    });
  }

  async function pass(): Promise<void> {
    await repo.rearm();
    for (const { account_id } of await repo.crossed()) await startTopup(account_id);
    for (const payment of await repo.pending()) await charge(payment);
  }

  const flush = coalescedPasses(pass);

  return {
    /** Starts the top-ups of new crossings and charges the pending ones; a call during a pass waits for one more pass after it. */
    flush: (): Promise<void> => (stripe ? flush() : Promise.resolve()),

    /**
     * Saves the choice. With a card saved, auto top-up is on at once; without one, it answers a
     * Checkout for the pack that saves the card (`setup_future_usage=off_session`), and auto top-up
     * comes on when that payment lands (`saveCard`).
     */
    async configure(accountId: string, choice: TopupChoice, options: { via: Via }): Promise<{ enabled: boolean; checkoutUrl: string | null }> {
      if (!stripe) throw billingErrors.notConfigured('Auto top-up needs a service that sells credits.');
      if (!config.packs.some((pack) => pack.credits === choice.packCredits)) throw billingErrors.unknownPack(config.packs);
      if (!validChoice(choice)) throw billingErrors.invalidTopup();
      await repo.save(accountId, choice, now());
      const settings = (await repo.settings(accountId))!;
      if (settings.payment_method_id) return { enabled: true, checkoutUrl: null };
      let customerId = settings.customer_id;
      if (!customerId) {
        // One customer per account, whichever instance asks first: the key makes a retry return the same one.
        const customer = await stripe.customers
          .create({ metadata: { account_id: accountId } }, { idempotencyKey: `customer-${accountId}` })
          .catch((error: unknown) => {
            log.warn({ err: error }, 'creating a Stripe customer for auto top-up failed');
            throw billingErrors.checkoutFailed(error);
          });
        customerId = customer.id;
        await repo.setCustomer(accountId, customerId, now());
      }
      const checkout = await deps.openCheckout(accountId, choice.packCredits, { via: options.via, saveCard: { customerId } });
      await repo.awaitCard(accountId, checkout.payment.id, now());
      return { enabled: false, checkoutUrl: checkout.url };
    },

    turnOff: (accountId: string) => repo.turnOff(accountId, now()),

    /**
     * After a paid Checkout that was to save the card: when the settings still wait for this very
     * payment, reads the card off its PaymentIntent and turns auto top-up on. A replay (Stripe
     * redelivers for days, reconcile applies again) finds nothing awaited and changes nothing, so it
     * cannot undo a turn-off, a switch-off after a decline, or a card replaced since.
     */
    async saveCard(accountId: string, session: { paymentId: string; customer: string | null; paymentIntentId: string }): Promise<void> {
      if (!stripe || !session.customer) return;
      if ((await repo.settings(accountId))?.awaiting_payment !== session.paymentId) return;
      const intent = await stripe.paymentIntents.retrieve(session.paymentIntentId);
      const paymentMethodId = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
      if (paymentMethodId) await repo.saveCard(accountId, session.paymentId, { customerId: session.customer, paymentMethodId }, now());
    },

    /**
     * What the banner on every dashboard page warns of, in one read: the failed charge that switched
     * auto top-up off, until its owner saves the settings again or turns it off.
     */
    async failure(accountId: string): Promise<{ reason: string } | null> {
      if (!stripe) return null;
      const row = await repo.settings(accountId);
      return row?.last_failure ? { reason: row.last_failure } : null;
    },

    /** The settings as the Credits page shows them, with this month's count against the maximum. */
    async settings(accountId: string) {
      const row = await repo.settings(accountId);
      if (!row) return null;
      const month = monthOf(clock());
      return {
        enabled: row.enabled === 1,
        threshold: Number(row.threshold),
        packCredits: Number(row.pack_credits),
        monthlyMax: row.monthly_max,
        cardSaved: row.payment_method_id !== null,
        failures: row.failures,
        lastFailure: row.last_failure,
        thisMonth: await repo.countSince(accountId, `${month}-01`),
        resetsAt: nextMonthStart(month),
      };
    },
  };
}

export type AutoTopups = ReturnType<typeof createAutoTopups>;
