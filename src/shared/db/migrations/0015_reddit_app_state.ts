import type { Kysely, Migration } from 'kysely';

/**
 * How Reddit treated the monitors' poller at its last cycle that read anything (`ok`,
 * `blocked`, `failing`) and since when. Kept in the database, not in memory, so a change is logged
 * and announced once: a restart, or another instance taking over the poller, finds it already told.
 * One row per observer; the poller's is named `monitors`.
 */
export const redditAppStateMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('reddit_app_state')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('since', 'text', (c) => c.notNull())
      .execute();
  },
};
