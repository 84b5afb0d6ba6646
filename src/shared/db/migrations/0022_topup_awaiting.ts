import type { Kysely, Migration } from 'kysely';

/**
 * `auto_topups.awaiting_payment`: the Checkout payment whose card auto top-up is waiting for. Only
 * that payment, the first time it is applied, saves its card and turns auto top-up on; the column is
 * cleared then, and whenever the owner turns auto top-up off. Stripe redelivers a completed Checkout
 * for days and `billing reconcile` applies it again: neither may undo what the owner (or a declined
 * card) changed since.
 */
export const topupAwaitingMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('auto_topups').addColumn('awaiting_payment', 'text').execute();
    // A card that failed is never charged again (it used to be retried up to three times): a row left
    // on with a failed card is switched off and loses the card, as a failure does from now on.
    await db.updateTable('auto_topups').set({ enabled: 0, payment_method_id: null }).where('last_failure', 'is not', null).execute();
  },
};
