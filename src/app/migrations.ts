import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { isSqlite, type Database } from './database.ts';
import { generatePublishMigration } from './migrations.generate-publish.ts';
import { publishRecoveryMigration } from './migrations.publish-recovery.ts';
import { redditBudgetMigration } from './migrations.reddit-budget.ts';
import { scaleOutMigration } from './migrations.scale-out.ts';
import { scrapeSkippedMigration } from './migrations.scrape-skipped.ts';
import { subredditDirectoryMigration } from './migrations.subreddits.ts';

/** Both engines run the same migrations; the only dialect difference is the ledger's identity column. */
const migrations: Record<string, Migration> = {
  '0001_core': {
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
  },
  '0002_dashboard': {
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
  },
  '0003_generate_publish': generatePublishMigration,
  '0004_scale_out': scaleOutMigration,
  '0005_subreddit_directory': subredditDirectoryMigration,
  '0006_reddit_budget': redditBudgetMigration,
  '0007_publish_recovery': publishRecoveryMigration,
  '0008_scrape_skipped': scrapeSkippedMigration,
};

export async function migrate(db: Database): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema; pin them to ours, or a database
  // shared by several schemas (one per test file, or per tenant) mistakes another's for its own.
  const schema = isSqlite(db)
    ? undefined
    : (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
