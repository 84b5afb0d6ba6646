import { sql, type Kysely, type Migration } from 'kysely';
import { isSqlite, type Database } from '../database.ts';

/** Credit holds, queued scrapes with webhooks, idempotency keys, rate-limit windows, SQLite jobs. */
export const scaleOutMigration: Migration = {
  async up(db: Kysely<any>) {
    const sqlite = isSqlite(db as Database);
    await db.schema
      .alterTable('accounts')
      .addColumn('held', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`held >= 0`))
      .execute();
    await db.schema.alterTable('accounts').addColumn('webhook_secret', 'text').execute();
    await db.schema.alterTable('scrapes').addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('scrapes').addColumn('webhook_url', 'text').execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('scrape_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .execute();
    await db.schema.createIndex('webhook_deliveries_account').on('webhook_deliveries').columns(['account_id', 'id']).execute();
    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id'))
      .addColumn('attempted_at', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'id']).execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('response_headers', 'text')
      .addColumn('response_body', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
      .execute();

    // Counters that may be lost on a crash: on PostgreSQL the table skips the WAL, so counting a
    // request costs no disk flush.
    await (sqlite ? db.schema.createTable('rate_limit_windows') : db.schema.createTable('rate_limit_windows').modifyFront(sql`unlogged`))
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('rate_limit_windows_pk', ['key_id', 'window_start'])
      .execute();

    // The in-process job queue used on SQLite; PostgreSQL uses pg-boss and its own schema.
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('queue', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('retry_limit', 'integer', (c) => c.notNull())
      .addColumn('retry_delay_seconds', 'integer', (c) => c.notNull())
      .addColumn('expire_seconds', 'integer', (c) => c.notNull())
      .addColumn('run_after', 'text', (c) => c.notNull())
      .addColumn('last_error', 'text')
      .execute();
    await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_after']).execute();
  },
};
