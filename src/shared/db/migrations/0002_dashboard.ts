import { type Kysely, type Migration } from 'kysely';

/** Dashboard log-ins: sessions and the failed attempts that throttle guessing. */
export const dashboardMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

    await db.schema
      .createTable('login_failures')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_failures_email').on('login_failures').columns(['email', 'created_at']).execute();
    await db.schema.createIndex('login_failures_ip').on('login_failures').columns(['ip', 'created_at']).execute();
  },
};
