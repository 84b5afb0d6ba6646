import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';
import type { PaymentsTable } from './billing.tables.ts';

type NewPayment = Omit<PaymentsTable, 'credited' | 'taken_back' | 'checkout_session_id' | 'checkout_url' | 'payment_intent_id' | 'failure' | 'paid_at'>;

/**
 * Payments and the Stripe facts about them. Works on a database or a transaction: every event is
 * applied in one transaction that takes, in this order, the lock of the PaymentIntent's facts row and
 * then the payment's row, so two events about one payment (or the same event twice) queue up and
 * never deadlock, and the second sees what the first committed (billing.settle.usecases.ts).
 */
export const createBillingRepository = (db: Kysely<Tables>) => ({
  async insert(payment: NewPayment): Promise<void> {
    await db.insertInto('payments').values(payment).execute();
  },

  /** Records the Checkout Session made for an open payment (its id and the page to send the buyer to). */
  async attachSession(id: string, session: { id: string; url: string }, at: string): Promise<void> {
    await db.updateTable('payments').set({ checkout_session_id: session.id, checkout_url: session.url, updated_at: at }).where('id', '=', id).execute();
  },

  /** A payment that could not be started (Stripe refused or was unreachable), or a top-up that was declined. */
  async fail(id: string, failure: string, at: string): Promise<void> {
    await db
      .updateTable('payments')
      .set({ status: 'failed', failure, updated_at: at })
      .where('id', '=', id)
      .where('status', 'in', ['open', 'pending'])
      .execute();
  },

  byId: (id: string) => db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst(),
  bySession: (sessionId: string) => db.selectFrom('payments').selectAll().where('checkout_session_id', '=', sessionId).executeTakeFirst(),

  /** The account's payments, newest first. */
  ofAccount: (accountId: string, limit: number) =>
    db.selectFrom('payments').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),

  /**
   * Locks (creating it if need be) the facts row of a PaymentIntent and raises what it says was
   * refunded to `amountRefunded` when that is more: `charge.refunded` carries the cumulative figure,
   * and an older event arriving late must not lower it. Returns what is recorded as refunded.
   */
  async lockIntent(intent: { id: string; chargeId?: string | null; amountRefunded?: number }, at: string): Promise<number> {
    const refunded = intent.amountRefunded ?? 0;
    const row = await db
      .insertInto('stripe_payment_intents')
      .values({ id: intent.id, charge_id: intent.chargeId ?? null, amount_refunded: refunded, updated_at: at })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          amount_refunded: sql`case when stripe_payment_intents.amount_refunded > excluded.amount_refunded then stripe_payment_intents.amount_refunded else excluded.amount_refunded end`,
          charge_id: sql`coalesce(excluded.charge_id, stripe_payment_intents.charge_id)`,
          updated_at: at,
        }),
      )
      .returning('amount_refunded')
      .executeTakeFirstOrThrow();
    return Number(row.amount_refunded);
  },

  /** Records a dispute's news; a flag only ever turns on, so a late `funds_withdrawn` cannot undo a reinstatement. */
  async recordDispute(dispute: { id: string; paymentIntentId: string; withdrawn: boolean; reinstated: boolean }, at: string): Promise<void> {
    await db
      .insertInto('stripe_disputes')
      .values({
        id: dispute.id,
        payment_intent_id: dispute.paymentIntentId,
        funds_withdrawn: dispute.withdrawn ? 1 : 0,
        funds_reinstated: dispute.reinstated ? 1 : 0,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          funds_withdrawn: sql`case when excluded.funds_withdrawn = 1 then 1 else stripe_disputes.funds_withdrawn end`,
          funds_reinstated: sql`case when excluded.funds_reinstated = 1 then 1 else stripe_disputes.funds_reinstated end`,
          updated_at: at,
        }),
      )
      .execute();
  },

  /** Whether a dispute holds the PaymentIntent's money now: its funds withdrawn and not (yet) reinstated. */
  async disputed(paymentIntentId: string): Promise<boolean> {
    const row = await db
      .selectFrom('stripe_disputes')
      .select('id')
      .where('payment_intent_id', '=', paymentIntentId)
      .where('funds_withdrawn', '=', 1)
      .where('funds_reinstated', '=', 0)
      .executeTakeFirst();
    return row !== undefined;
  },

  /**
   * Marks a payment paid by `paymentIntentId` (once: a paid payment keeps its first PaymentIntent),
   * locking its row; found by its Checkout Session or, for a top-up, by its own id.
   */
  async markPaid(where: { sessionId: string } | { paymentId: string }, paymentIntentId: string, at: string): Promise<void> {
    let query = db
      .updateTable('payments')
      .set({ status: 'paid', payment_intent_id: paymentIntentId, paid_at: at, failure: null, updated_at: at })
      .where('status', '<>', 'paid');
    query = 'sessionId' in where ? query.where('checkout_session_id', '=', where.sessionId) : query.where('id', '=', where.paymentId);
    await query.execute();
  },

  /** Locks the payment paid by this PaymentIntent for the rest of the transaction and reads it; undefined when none is. */
  lockByIntent: (paymentIntentId: string, at: string) =>
    db.updateTable('payments').set({ updated_at: at }).where('payment_intent_id', '=', paymentIntentId).returningAll().executeTakeFirst(),

  /** Records what the ledger now holds of the payment: credited, and taken back in all. */
  async recordSettled(id: string, settled: { credited: number; takenBack: number }): Promise<void> {
    await db.updateTable('payments').set({ credited: settled.credited, taken_back: settled.takenBack }).where('id', '=', id).execute();
  },

  /** An open Checkout Session Stripe says lapsed unpaid. */
  async expire(sessionId: string, at: string): Promise<void> {
    await db
      .updateTable('payments')
      .set({ status: 'expired', updated_at: at })
      .where('checkout_session_id', '=', sessionId)
      .where('status', '=', 'open')
      .execute();
  },
});

export type BillingRepository = ReturnType<typeof createBillingRepository>;
