import { sql, type Kysely, type Migration } from 'kysely';
import { isSqlite, type Database } from '../database.ts';

/** Accounts, keys, the ledger and scrapes. The only dialect difference is the ledger's identity column. */
export const coreMigration: Migration = {
  async up(db: Kysely<any>) {
    const sqlite = isSqlite(db as Database);
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text')
      .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`balance >= 0`))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema
      .createIndex('api_keys_active_name')
      .on('api_keys')
      .columns(['account_id', 'name'])
      .unique()
      .where(sql.ref('revoked_at'), 'is', null)
      .execute();

    await db.schema
      .createTable('credit_ledger')
      .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) =>
        sqlite ? c.primaryKey().autoIncrement() : c.primaryKey(),
      )
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('balance_after', 'bigint', (c) => c.notNull())
      .addColumn('key_id', 'text')
      .addColumn('scrape_id', 'text')
      .addColumn('reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('credit_ledger_account').on('credit_ledger').columns(['account_id', 'id']).execute();

    await db.schema
      .createTable('scrapes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('key_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('results', 'text')
      .addColumn('unavailable', 'text')
      .addColumn('price', 'bigint', (c) => c.notNull())
      .addColumn('charged', 'bigint', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .execute();
    await db.schema.createIndex('scrapes_account').on('scrapes').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('scrapes_status').on('scrapes').columns(['status', 'lease_expires_at']).execute();
  },
};
