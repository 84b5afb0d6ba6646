import type { Kysely, Migration } from 'kysely';

/** How many posts Reddit sent for a scrape could not be read and were left out. */
export const scrapeSkippedMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('scrapes').addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};
