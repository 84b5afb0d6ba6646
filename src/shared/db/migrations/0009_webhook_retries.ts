import { sql, type Kysely, type Migration } from 'kysely';
import { isSqlite, type Database } from '../database.ts';

/**
 * A delivery keeps its own next retry time (shown, and moved by "retry now"), and a
 * webhook.test event is about no scrape, so scrape_id may be null. SQLite cannot drop a NOT NULL, so
 * there both webhook tables are rebuilt (attempts too: its foreign key must follow the new table).
 */
export const webhookRetriesMigration: Migration = {
  async up(db: Kysely<any>) {
    if (!isSqlite(db as Database)) {
      await db.schema.alterTable('webhook_deliveries').alterColumn('scrape_id', (c) => c.dropNotNull()).execute();
      await db.schema.alterTable('webhook_deliveries').addColumn('next_attempt_at', 'text').execute();
      return;
    }
    await db.schema
      .createTable('webhook_deliveries_new')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('scrape_id', 'text')
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .addColumn('next_attempt_at', 'text')
      .execute();
    await sql`insert into webhook_deliveries_new (id, account_id, scrape_id, url, event_type, payload, status, attempts, created_at, delivered_at)
      select id, account_id, scrape_id, url, event_type, payload, status, attempts, created_at, delivered_at from webhook_deliveries`.execute(db);
    await db.schema
      .createTable('webhook_attempts_new')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries_new.id'))
      .addColumn('attempted_at', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .execute();
    await sql`insert into webhook_attempts_new select id, delivery_id, attempted_at, status_code, error, duration_ms from webhook_attempts`.execute(db);
    await db.schema.dropTable('webhook_attempts').execute();
    await db.schema.dropTable('webhook_deliveries').execute();
    // Renaming rewrites webhook_attempts_new's foreign key to the new name as well.
    await db.schema.alterTable('webhook_deliveries_new').renameTo('webhook_deliveries').execute();
    await db.schema.alterTable('webhook_attempts_new').renameTo('webhook_attempts').execute();
    await db.schema.createIndex('webhook_deliveries_account').on('webhook_deliveries').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'id']).execute();
  },
};
