import type { Kysely, Migration } from 'kysely';

/** Issue 9 item 1: the subreddit directory (placeholder: filled by the work on that item, removed if it needs no schema change). */
export const subredditDirectoryMigration: Migration = {
  async up(_db: Kysely<any>) {},
};
