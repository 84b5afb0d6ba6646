import type { Kysely, Migration } from 'kysely';

/**
 * Reddit lists things by position, not by id, so a subreddit's mark becomes a time and the
 * fullnames read just before it. Existing marks keep their time and start with nothing seen: the
 * first read after the upgrade looks at the last 30 s again, and the unique (monitor, thing) key
 * keeps anything already stored from being stored or charged twice.
 */
export const monitorSeenMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('monitor_cursors').addColumn('seen', 'text').execute();
  },
};
