import { Migrator, sql, type Migration } from 'kysely';
import { isSqlite, type Database } from './database.ts';
import { coreMigration } from './migrations/0001_core.ts';
import { dashboardMigration } from './migrations/0002_dashboard.ts';
import { generatePublishMigration } from './migrations/0003_generate_publish.ts';
import { scaleOutMigration } from './migrations/0004_scale_out.ts';
import { subredditDirectoryMigration } from './migrations/0005_subreddit_directory.ts';
import { redditBudgetMigration } from './migrations/0006_reddit_budget.ts';
import { publishRecoveryMigration } from './migrations/0007_publish_recovery.ts';
import { scrapeSkippedMigration } from './migrations/0008_scrape_skipped.ts';
import { webhookRetriesMigration } from './migrations/0009_webhook_retries.ts';
import { keyControlsMigration } from './migrations/0010_key_controls.ts';
import { monitorsMigration } from './migrations/0011_monitors.ts';
import { idempotencyOutcomesMigration } from './migrations/0012_idempotency_outcomes.ts';
import { monitorSeenMigration } from './migrations/0013_monitor_seen.ts';
import { monitorResumeMigration } from './migrations/0014_monitor_resume.ts';
import { redditAppStateMigration } from './migrations/0015_reddit_app_state.ts';
import { subredditOmittedNamesMigration } from './migrations/0016_subreddit_omitted_names.ts';
import { viaMigration } from './migrations/0017_via.ts';
import { paymentsMigration } from './migrations/0018_payments.ts';
import { relevanceMigration } from './migrations/0019_relevance.ts';
import { repliesMigration } from './migrations/0020_replies.ts';
import { keyGenerationsMigration } from './migrations/0021_key_generations.ts';
import { topupAwaitingMigration } from './migrations/0022_topup_awaiting.ts';
import { dropContentHashMigration } from './migrations/0023_drop_content_hash.ts';
import { destinationsMigration } from './migrations/0024_destinations.ts';
import { alertRoutesMigration } from './migrations/0025_alert_routes.ts';
import { destinationConfirmationMigration } from './migrations/0026_destination_confirmation.ts';
import { webhookSecretRollMigration } from './migrations/0027_webhook_secret_roll.ts';
import { accountTokensMigration } from './migrations/0028_account_tokens.ts';
import { streamMigration } from './migrations/0029_stream.ts';
import { monitorExcludeSubredditsMigration } from './migrations/0030_monitor_exclude_subreddits.ts';
import { streamWalkedSinceMigration } from './migrations/0031_stream_walked_since.ts';

/** Both engines run the same migrations, one numbered file each under migrations/, applied in this order. */
const migrations: Record<string, Migration> = {
  '0001_core': coreMigration,
  '0002_dashboard': dashboardMigration,
  '0003_generate_publish': generatePublishMigration,
  '0004_scale_out': scaleOutMigration,
  '0005_subreddit_directory': subredditDirectoryMigration,
  '0006_reddit_budget': redditBudgetMigration,
  '0007_publish_recovery': publishRecoveryMigration,
  '0008_scrape_skipped': scrapeSkippedMigration,
  '0009_webhook_retries': webhookRetriesMigration,
  '0010_key_controls': keyControlsMigration,
  '0011_monitors': monitorsMigration,
  '0012_idempotency_outcomes': idempotencyOutcomesMigration,
  '0013_monitor_seen': monitorSeenMigration,
  '0014_monitor_resume': monitorResumeMigration,
  '0015_reddit_app_state': redditAppStateMigration,
  '0016_subreddit_omitted_names': subredditOmittedNamesMigration,
  '0017_via': viaMigration,
  '0018_payments': paymentsMigration,
  '0019_relevance': relevanceMigration,
  '0020_replies': repliesMigration,
  '0021_key_generations': keyGenerationsMigration,
  '0022_topup_awaiting': topupAwaitingMigration,
  '0023_drop_content_hash': dropContentHashMigration,
  '0024_destinations': destinationsMigration,
  '0025_alert_routes': alertRoutesMigration,
  '0026_destination_confirmation': destinationConfirmationMigration,
  '0027_webhook_secret_roll': webhookSecretRollMigration,
  '0028_account_tokens': accountTokensMigration,
  '0029_stream': streamMigration,
  '0030_monitor_exclude_subreddits': monitorExcludeSubredditsMigration,
  '0031_stream_walked_since': streamWalkedSinceMigration,
};

/** Applies every migration, or those up to and including `upTo` (a test builds an older shape with it). */
export async function migrate(db: Database, upTo?: string): Promise<void> {
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
  const { error } = upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(upTo);
  if (error) throw error;
}
