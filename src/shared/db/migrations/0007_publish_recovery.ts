import type { Kysely, Migration } from 'kysely';

/**
 * A publication whose outcome is unknown is checked against Reddit before it is
 * charged or refunded. `author` is the Reddit user it was sent as (whose listings are searched);
 * `recovery_checks` counts the rounds in which Reddit could not be asked, so the retries are bounded.
 */
export const publishRecoveryMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('publications').addColumn('author', 'text').execute();
    await db.schema
      .alterTable('publications')
      .addColumn('recovery_checks', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
