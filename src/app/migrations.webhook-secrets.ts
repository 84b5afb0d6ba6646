import type { Kysely, Migration } from 'kysely';

/** Issue 9 item G: webhook signing secrets sealed at rest (placeholder: filled by the work on that item, removed if it needs no schema change). */
export const webhookSecretsMigration: Migration = {
  async up(_db: Kysely<any>) {},
};
