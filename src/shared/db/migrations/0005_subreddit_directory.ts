import type { Kysely, Migration } from 'kysely';

/**
 * The subreddit directory. One row per subreddit, keyed by its lower-case name, so a
 * scrape (or a monitor) knows each name's state before it is charged and Reddit is asked at most daily.
 */
export const subredditDirectoryMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('subreddits')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('nsfw', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('checked_at', 'text', (c) => c.notNull())
      .execute();
  },
};
