import type Stripe from 'stripe';
import { transaction, type Database } from '../../shared/db/database.ts';
import { createBillingRepository } from './billing.repository.ts';
import { settlePaid, settlePayment } from './billing.settle.usecases.ts';
import { createTopupRepository } from './billing.topup.repository.ts';

/** The events this service acts on; the rest are answered 200 and ignored (the endpoint may be sent more than these). */
export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
  'payment_intent.succeeded',
] as const satisfies readonly Stripe.Event.Type[];

/** `refused`: an event about one of our payments whose facts do not match it (logged by the caller, nothing credited). */
export type EventOutcome = 'applied' | 'ignored' | 'refused';

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

/**
 * Applies one verified Stripe event, from the webhook or from `billing reconcile`, in one transaction.
 * Nothing here is keyed on the event's id: Stripe sends one event to every endpoint of an account, and
 * a shared table of seen ids would make a second endpoint skip real credits. Each event records a fact
 * about what was bought (a session paid, a charge refunded so far, a dispute's funds) and then
 * `settlePayment` makes the ledger agree with all the facts, which is the same however often and in
 * whatever order they come. A session or charge of something this service did not sell changes nothing.
 */
export async function applyStripeEvent(db: Database, event: Stripe.Event, at: string): Promise<EventOutcome> {
  const repo = createBillingRepository(db);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      const intent = idOf(session.payment_intent);
      // A completion with a delayed method (a bank debit) is not money yet: async_payment_succeeded brings it.
      if (session.payment_status !== 'paid' || !intent) return 'ignored';
      if (!(await repo.bySession(session.id))) return 'ignored';
      await transaction(db, (trx) => settlePaid(trx, { sessionId: session.id }, intent, at));
      return 'applied';
    }
    case 'checkout.session.async_payment_failed': {
      const payment = await repo.bySession(event.data.object.id);
      if (!payment) return 'ignored';
      await repo.fail(payment.id, 'The payment did not go through (the bank refused the debit).', at);
      return 'applied';
    }
    case 'checkout.session.expired':
      await repo.expire(event.data.object.id, at);
      return 'applied';
    case 'charge.refunded': {
      const charge = event.data.object;
      const intent = idOf(charge.payment_intent);
      if (!intent) return 'ignored';
      await transaction(db, async (trx) => {
        const refunded = await createBillingRepository(trx).lockIntent({ id: intent, chargeId: charge.id, amountRefunded: charge.amount_refunded }, at);
        await settlePayment(trx, intent, refunded, at);
      });
      return 'applied';
    }
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.funds_reinstated': {
      const dispute = event.data.object;
      const intent = idOf(dispute.payment_intent);
      if (!intent) return 'ignored';
      const reinstated = event.type === 'charge.dispute.funds_reinstated';
      await transaction(db, async (trx) => {
        const disputes = createBillingRepository(trx);
        // A reinstatement implies the withdrawal, which may not have arrived (or may never be replayed).
        await disputes.recordDispute({ id: dispute.id, paymentIntentId: intent, withdrawn: true, reinstated }, at);
        await settlePayment(trx, intent, await disputes.lockIntent({ id: intent }, at), at);
      });
      return 'applied';
    }
    case 'payment_intent.succeeded': {
      // An auto top-up's charge: its payment is named in the metadata it was created with. Metadata is
      // anyone's to write (a PaymentIntent made by hand in the dashboard can name any payment), so the
      // money must be the payment's own: its amount, its currency, from the customer whose card it saved.
      const intent = event.data.object;
      const paymentId = intent.metadata?.payment_id;
      const payment = paymentId ? await repo.byId(paymentId) : undefined;
      if (!payment || payment.source !== 'topup') return 'ignored';
      const customer = (await createTopupRepository(db).settings(payment.account_id))?.customer_id ?? null;
      const matches = intent.amount === Number(payment.amount) && intent.currency === payment.currency && customer !== null && idOf(intent.customer) === customer;
      if (!matches) return 'refused';
      await transaction(db, (trx) => settlePaid(trx, { paymentId: payment.id }, intent.id, at));
      return 'applied';
    }
    default:
      return 'ignored';
  }
}
