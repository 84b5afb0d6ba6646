import type { Kysely, Migration } from 'kysely';

/**
 * Monitors over all of Reddit (issue 45): `subreddits` ["r/all"] watches every subreddit the
 * site-wide stream reads, less `exclude_subreddits` (JSON ["r/name", …], stored as r/name like
 * `subreddits`). Every monitor made before has none: '[]'. Same text column on SQLite and PostgreSQL.
 */
export const monitorExcludeSubredditsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('monitors')
      .addColumn('exclude_subreddits', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};
