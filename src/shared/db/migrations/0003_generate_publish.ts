import { sql, type Kysely, type Migration } from 'kysely';

/** Generate and publish: drafts, publications, Reddit connections and their OAuth states. */
export const generatePublishMigration: Migration = {
  async up(db: Kysely<any>) {
    // The ledger names what a movement paid for, like scrape_id does for scrapes.
    await db.schema.alterTable('credit_ledger').addColumn('generation_id', 'text').execute();
    await db.schema.alterTable('credit_ledger').addColumn('publication_id', 'text').execute();

    await db.schema
      .createTable('generations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('key_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text')
      .addColumn('subreddit', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('body', 'text')
      .addColumn('model', 'text')
      .addColumn('usage', 'text')
      .addColumn('price', 'bigint', (c) => c.notNull())
      .addColumn('charged', 'bigint', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .execute();
    await db.schema.createIndex('generations_account').on('generations').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('generations_status').on('generations').columns(['status', 'lease_expires_at']).execute();

    await db.schema
      .createTable('publications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('key_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('generation_id', 'text')
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'text')
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('reddit_id', 'text')
      .addColumn('permalink', 'text')
      .addColumn('price', 'bigint', (c) => c.notNull())
      .addColumn('charged', 'bigint', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .execute();
    // A retried request with the same key finds the first one; a refused attempt frees its key.
    await db.schema
      .createIndex('publications_idempotency')
      .on('publications')
      .columns(['account_id', 'idempotency_key'])
      .unique()
      .where(sql.ref('idempotency_key'), 'is not', null)
      .execute();
    await db.schema.createIndex('publications_content').on('publications').columns(['account_id', 'content_hash', 'created_at']).execute();
    await db.schema.createIndex('publications_status').on('publications').columns(['status', 'lease_expires_at']).execute();

    await db.schema
      .createTable('reddit_connections')
      .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id'))
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('refresh_token_sealed', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('oauth_states')
      .addColumn('state_hash', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('session_hash', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
};
