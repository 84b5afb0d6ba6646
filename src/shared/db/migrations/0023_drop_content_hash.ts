import type { Kysely, Migration } from 'kysely';

/**
 * `publications.content_hash` (the same text to the same place) was written on every publication and
 * read by nothing since the same-text rail moved to `text_hash` (wherever the text went): the column
 * and its index go, so no one reads a rule into it that the service does not apply.
 */
export const dropContentHashMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.dropIndex('publications_content').execute();
    await db.schema.alterTable('publications').dropColumn('content_hash').execute();
  },
};
