import type { Kysely, Migration } from 'kysely';

/**
 * A monitor paused for credits remembers where it stopped, the `created_at` of the first
 * match it could not pay for, so that once the account can pay again it reads back to there and
 * nothing published during the pause is lost. Null for every other monitor.
 */
export const monitorResumeMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('monitors').addColumn('resume_from', 'text').execute();
  },
};
