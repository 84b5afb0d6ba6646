import type { Kysely, Migration } from 'kysely';

/** Issue 9 item B: the shared Reddit request budget (placeholder: filled by the work on that item, removed if it needs no schema change). */
export const redditBudgetMigration: Migration = {
  async up(_db: Kysely<any>) {},
};
