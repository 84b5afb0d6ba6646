import { sql, type Kysely, type Migration } from 'kysely';
import { isSqlite, type Database } from '../database.ts';

/**
 * Monitors. What each monitor watches and its state; the matches it stored (one per
 * monitor and Reddit thing, so a restart can never store one twice); the gaps the poller could not
 * read; where the one poller stopped reading each subreddit's posts and comments (its high-water
 * marks, with the time of the last good read and of the last Reddit error); the lease that lets one
 * instance poll at a time; and, on the ledger, which monitor a charge paid for and for how many matches.
 */
export const monitorsMigration: Migration = {
  async up(db: Kysely<any>) {
    const sqlite = isSqlite(db as Database);
    const serial = (table: string) =>
      db.schema
        .createTable(table)
        .addColumn('seq', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()));

    await db.schema
      .createTable('monitors')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('paused_reason', 'text')
      // A daily-cap pause ends by itself at the next UTC midnight.
      .addColumn('paused_until', 'text')
      // JSON arrays: ["r/name", ...], keywords as given (trimmed), ["posts", "comments"].
      .addColumn('subreddits', 'text', (c) => c.notNull())
      .addColumn('keywords', 'text', (c) => c.notNull())
      .addColumn('exclude_keywords', 'text', (c) => c.notNull())
      .addColumn('match_mode', 'text', (c) => c.notNull())
      .addColumn('sources', 'text', (c) => c.notNull())
      .addColumn('include_nsfw', 'integer', (c) => c.notNull())
      .addColumn('webhook_url', 'text')
      .addColumn('max_matches_per_day', 'integer')
      // Things created before this instant are not matched: set at creation and at every resume.
      .addColumn('watch_from', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('monitors_account').on('monitors').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('monitors_status').on('monitors').columns(['status']).execute();

    await serial('monitor_matches')
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('reddit_id', 'text', (c) => c.notNull())
      .addColumn('subreddit', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('author', 'text', (c) => c.notNull())
      .addColumn('permalink', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('matched_keywords', 'text', (c) => c.notNull())
      .addColumn('found_at', 'text', (c) => c.notNull())
      // The monitor.matches delivery this match goes out in (null: the monitor has no webhook URL), and when it was enqueued.
      .addColumn('webhook_batch', 'text')
      .addColumn('notified_at', 'text')
      .addUniqueConstraint('monitor_matches_once', ['monitor_id', 'reddit_id'])
      .execute();
    await db.schema.createIndex('monitor_matches_page').on('monitor_matches').columns(['monitor_id', 'seq']).execute();
    await db.schema.createIndex('monitor_matches_day').on('monitor_matches').columns(['monitor_id', 'found_at']).execute();
    await db.schema
      .createIndex('monitor_matches_unsent')
      .on('monitor_matches')
      .columns(['webhook_batch'])
      .where(sql.ref('notified_at'), 'is', null)
      .execute();

    await serial('monitor_gaps')
      .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('subreddits', 'text', (c) => c.notNull())
      // What could not be read: things created after `from_at` and before `to_at`.
      .addColumn('from_at', 'text', (c) => c.notNull())
      .addColumn('to_at', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('monitor_gaps_monitor').on('monitor_gaps').columns(['monitor_id', 'seq']).execute();

    await db.schema
      .createTable('monitor_cursors')
      // Lower-case, without "r/"; source 'posts' | 'comments'.
      .addColumn('subreddit', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      // Reddit fullname (t3_… / t1_…) of the newest thing read; everything up to it has been seen.
      .addColumn('mark', 'text')
      .addColumn('mark_at', 'text')
      .addColumn('read_at', 'text')
      .addColumn('error', 'text')
      .addColumn('error_at', 'text')
      .addPrimaryKeyConstraint('monitor_cursors_pk', ['subreddit', 'source'])
      .execute();

    await db.schema
      .createTable('poller_leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      // Counts acquisitions and cycles, so two holders can never both commit the same cycle.
      .addColumn('cycle', 'integer', (c) => c.notNull())
      .execute();

    await db.schema.alterTable('credit_ledger').addColumn('monitor_id', 'text').execute();
    await db.schema.alterTable('credit_ledger').addColumn('match_count', 'integer').execute();
  },
};
