import type { Kysely, Migration } from 'kysely';

/** Issue 9 item D: recovery of interrupted generations and publications (placeholder: filled by the work on that item, removed if it needs no schema change). */
export const publishRecoveryMigration: Migration = {
  async up(_db: Kysely<any>) {},
};
