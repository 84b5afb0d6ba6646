import { sql, type Kysely, type Migration } from 'kysely';
import { isSqlite, type Database } from '../database.ts';

/**
 * The shared Reddit request budget (src/integrations/reddit/reddit.budget.ts), one
 * row per consumer. Used on PostgreSQL without REDIS_URL; unlogged like the rate-limit windows, as a
 * crash that loses a minute's counts costs nothing. SQLite counts in memory but gets the table too,
 * so both engines have one schema.
 */
export const redditBudgetMigration: Migration = {
  async up(db: Kysely<any>) {
    const create = db.schema.createTable('reddit_budget');
    await (isSqlite(db as Database) ? create : create.modifyFront(sql`unlogged`))
      .addColumn('consumer', 'text', (c) => c.primaryKey())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('used', 'integer', (c) => c.notNull())
      .addColumn('active_until', 'bigint', (c) => c.notNull())
      .execute();
  },
};
