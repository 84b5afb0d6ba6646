import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Credits bought with Stripe. `payments` holds one row per Checkout Session or auto top-up, and how
 * many of its credits were credited and taken back: each Stripe event brings the payment to what
 * Stripe's facts say it should be, so a repeated or reordered event changes nothing twice. The facts
 * that arrive about a charge before (or without) its payment wait in `stripe_payment_intents`
 * (refunded so far) and `stripe_disputes` (one row per dispute). `accounts.owed` is what a refund or
 * dispute could not take back because the credits were spent; the ledger's `owed_change` says how
 * each entry moved it, so owed, like the balance, is the sum of its ledger. `auto_topups` holds an
 * account's opt-in auto top-up: the threshold, the pack, the monthly maximum and the saved card.
 */
export const paymentsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('accounts')
      .addColumn('owed', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`owed >= 0`))
      .execute();
    await db.schema.alterTable('credit_ledger').addColumn('payment_id', 'text').execute();
    await db.schema.alterTable('credit_ledger').addColumn('owed_change', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

    await db.schema
      .createTable('payments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('checkout_session_id', 'text', (c) => c.unique())
      .addColumn('checkout_url', 'text')
      .addColumn('payment_intent_id', 'text', (c) => c.unique())
      .addColumn('credited', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('taken_back', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('failure', 'text')
      .addColumn('via', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('paid_at', 'text')
      .execute();
    await db.schema.createIndex('payments_account').on('payments').columns(['account_id', 'created_at']).execute();

    await db.schema
      .createTable('stripe_payment_intents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('charge_id', 'text')
      .addColumn('amount_refunded', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('stripe_disputes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('payment_intent_id', 'text', (c) => c.notNull())
      .addColumn('funds_withdrawn', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('funds_reinstated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('auto_topups')
      .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id'))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('threshold', 'bigint', (c) => c.notNull())
      .addColumn('pack_credits', 'bigint', (c) => c.notNull())
      .addColumn('monthly_max', 'integer', (c) => c.notNull())
      .addColumn('customer_id', 'text')
      .addColumn('payment_method_id', 'text')
      .addColumn('below', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_failure', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('auto_topups_enabled').on('auto_topups').columns(['enabled', 'below']).execute();
    await db.schema.createIndex('payments_pending').on('payments').columns(['status', 'source']).execute();

    await db.schema.createIndex('stripe_disputes_payment_intent').on('stripe_disputes').column('payment_intent_id').execute();
  },
};
