import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';

/** What an account can spend, for the auto top-up checks (the same figure as credits.repository.ts `spendable`). */
const spendableOf = sql<number>`(select a.balance - a.held from accounts a where a.id = auto_topups.account_id)`;

/**
 * Auto top-up settings, the crossings acted on, and the top-ups waiting to be charged (payments of
 * source `topup`, status `pending`). The crossing flag `below` is taken with one guarded update, so
 * of two instances scanning at once only one starts the top-up of a crossing.
 */
export const createTopupRepository = (db: Kysely<Tables>) => ({
  settings: (accountId: string) => db.selectFrom('auto_topups').selectAll().where('account_id', '=', accountId).executeTakeFirst(),

  /**
   * Saves the settings; on only when a card is saved (a card that failed was dropped when it failed),
   * else it waits for the card of the next Checkout. A new choice starts afresh: no failures, no
   * Checkout awaited yet, and the next fall is a new crossing.
   */
  async save(accountId: string, choice: { threshold: number; packCredits: number; monthlyMax: number }, at: string): Promise<void> {
    const values = { threshold: choice.threshold, pack_credits: choice.packCredits, monthly_max: choice.monthlyMax, failures: 0, last_failure: null, below: 0, awaiting_payment: null, updated_at: at };
    await db
      .insertInto('auto_topups')
      .values({ account_id: accountId, enabled: 0, ...values })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet({ ...values, enabled: sql`case when auto_topups.payment_method_id is null then 0 else 1 end` }),
      )
      .execute();
  },

  /** The Checkout (its payment id) whose card auto top-up now waits for; any earlier one no longer counts. */
  async awaitCard(accountId: string, paymentId: string, at: string): Promise<void> {
    await db.updateTable('auto_topups').set({ awaiting_payment: paymentId, updated_at: at }).where('account_id', '=', accountId).execute();
  },

  async setCustomer(accountId: string, customerId: string, at: string): Promise<void> {
    await db.updateTable('auto_topups').set({ customer_id: customerId, updated_at: at }).where('account_id', '=', accountId).execute();
  },

  /**
   * The card saved at the awaited Checkout: auto top-up is on from now. Only while the settings still
   * wait for that very payment, and so only once: a redelivered or reconciled event finds the column
   * cleared (or naming a later Checkout, or cleared by turning off) and changes nothing.
   */
  async saveCard(accountId: string, paymentId: string, card: { customerId: string; paymentMethodId: string }, at: string): Promise<void> {
    await db
      .updateTable('auto_topups')
      .set({ customer_id: card.customerId, payment_method_id: card.paymentMethodId, enabled: 1, failures: 0, last_failure: null, awaiting_payment: null, updated_at: at })
      .where('account_id', '=', accountId)
      .where('awaiting_payment', '=', paymentId)
      .execute();
  },

  /** Off, by its owner: no Checkout is awaited any more, and a failure already seen is no longer news. */
  async turnOff(accountId: string, at: string): Promise<void> {
    await db
      .updateTable('auto_topups')
      .set({ enabled: 0, below: 0, awaiting_payment: null, failures: 0, last_failure: null, updated_at: at })
      .where('account_id', '=', accountId)
      .execute();
  },

  /** Re-arms the crossings that ended: back at or above the threshold (or off), the next fall is a new crossing. */
  async rearm(): Promise<void> {
    await db
      .updateTable('auto_topups')
      .set({ below: 0 })
      .where('below', '=', 1)
      .where((eb) => eb.or([eb('enabled', '=', 0), eb(spendableOf, '>=', eb.ref('threshold'))]))
      .execute();
  },

  /** The accounts with auto top-up on whose spendable balance fell below the threshold since the last crossing. */
  crossed: () =>
    db
      .selectFrom('auto_topups')
      .select('account_id')
      .where('enabled', '=', 1)
      .where('below', '=', 0)
      .where(sql<boolean>`${spendableOf} < threshold`)
      .execute(),

  /** Takes one crossing; undefined when another instance took it or auto top-up was turned off meanwhile. */
  claimCrossing: (accountId: string) =>
    db
      .updateTable('auto_topups')
      .set({ below: 1 })
      .where('account_id', '=', accountId)
      .where('enabled', '=', 1)
      .where('below', '=', 0)
      // Still below: a purchase or grant may have lifted the balance since it was found.
      .where(sql<boolean>`${spendableOf} < threshold`)
      .returningAll()
      .executeTakeFirst(),

  /** Top-ups of the account since `from` that are charged or being charged: what the monthly maximum counts. */
  async countSince(accountId: string, from: string): Promise<number> {
    const row = await db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('source', '=', 'topup')
      .where('status', 'in', ['pending', 'paid'])
      .where('created_at', '>=', from)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  /** Top-ups waiting to be charged, each with the card to charge and the account's webhook endpoint. */
  pending: () =>
    db
      .selectFrom('payments as p')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .leftJoin('auto_topups as t', 't.account_id', 'p.account_id')
      .selectAll('p')
      .select(['t.customer_id', 't.payment_method_id', 'a.webhook_url'])
      .where('p.source', '=', 'topup')
      .where('p.status', '=', 'pending')
      .orderBy('p.created_at')
      .execute(),

  /**
   * A charge the card refused: auto top-up switches off and the card is dropped, so it is never charged
   * again until a Checkout saves another. Returns the failures since the settings were last saved.
   */
  async recordFailure(accountId: string, reason: string, at: string): Promise<number> {
    const row = await db
      .updateTable('auto_topups')
      .set({ failures: sql`failures + 1`, last_failure: reason, enabled: 0, payment_method_id: null, updated_at: at })
      .where('account_id', '=', accountId)
      .returning(['failures'])
      .executeTakeFirst();
    return Number(row?.failures ?? 0);
  },

  async recordSuccess(accountId: string, at: string): Promise<void> {
    await db.updateTable('auto_topups').set({ failures: 0, last_failure: null, updated_at: at }).where('account_id', '=', accountId).execute();
  },
});
