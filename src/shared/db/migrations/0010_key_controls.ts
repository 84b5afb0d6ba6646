import { sql, type Kysely, type Migration } from 'kysely';
import { isSqlite, type Database } from '../database.ts';

/**
 * Keys as a means of payment. What a key may do (scopes), how much it may spend a month,
 * until when it works, which key replaced it; what each key spent per month (the counter its limit
 * is checked against, in the same transaction as the hold or charge); an account's low-balance
 * threshold, the endpoint its `credits.low` webhook goes to, and the alerts waiting to be sent.
 * Existing keys keep every scope, no limit and no expiry (NULLs).
 */
export const keyControlsMigration: Migration = {
  async up(db: Kysely<any>) {
    const sqlite = isSqlite(db as Database);
    await db.schema
      .alterTable('api_keys')
      // Space-separated scope names; NULL means every scope, today's and those added later.
      .addColumn('scopes', 'text')
      .execute();
    await db.schema.alterTable('api_keys').addColumn('monthly_credit_limit', 'integer').execute();
    await db.schema.alterTable('api_keys').addColumn('expires_at', 'text').execute();
    await db.schema.alterTable('api_keys').addColumn('replaced_by', 'text').execute();
    // A rolled key keeps working through its overlap under the name its successor now carries.
    await db.schema.dropIndex('api_keys_active_name').execute();
    await db.schema
      .createIndex('api_keys_active_name')
      .on('api_keys')
      .columns(['account_id', 'name'])
      .unique()
      .where(sql.ref('revoked_at'), 'is', null)
      .where(sql.ref('replaced_by'), 'is', null)
      .execute();

    await db.schema
      .createTable('key_monthly_spend')
      .addColumn('key_id', 'text', (c) => c.notNull())
      // 'YYYY-MM', UTC.
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('spent', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('key_monthly_spend_pk', ['key_id', 'month'])
      .execute();
    // This month's spend of keys that already spent, so a limit set today counts what came before it.
    await sql`
      insert into key_monthly_spend (key_id, month, spent)
      select key_id, substr(created_at, 1, 7), -sum(amount)
      from credit_ledger
      where key_id is not null and kind in ('charge', 'refund')
      group by key_id, substr(created_at, 1, 7)
      having -sum(amount) > 0`.execute(db);
    // The daily chart reads a key's ledger rows by date.
    await db.schema.createIndex('credit_ledger_key').on('credit_ledger').columns(['key_id', 'created_at']).execute();

    await db.schema.alterTable('accounts').addColumn('low_balance_threshold', 'integer').execute();
    // 1 from the moment the spendable balance fell below the threshold until it is back at or above it.
    await db.schema.alterTable('accounts').addColumn('low_balance_alerted', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('accounts').addColumn('webhook_url', 'text').execute();
    await db.schema
      .createTable('low_balance_alerts')
      .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('available', 'integer', (c) => c.notNull())
      .addColumn('threshold', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .execute();
    await db.schema.createIndex('low_balance_alerts_unsent').on('low_balance_alerts').columns(['sent_at', 'created_at']).execute();
  },
};
