import type { Kysely, Migration } from 'kysely';

/**
 * An Idempotency-Key is written by the transaction that creates its resource and moves its
 * credits, and names that resource, so a retry after a lost answer, a 5xx or a crash gets the committed
 * resource instead of a second execution. Rows still `in_flight` were claims of the old scheme, made
 * before any work and bound to nothing; they are dropped.
 */
export const idempotencyOutcomesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('idempotency_keys').addColumn('resource_id', 'text').execute();
    await db.deleteFrom('idempotency_keys').where('status', '=', 'in_flight').execute();
  },
};
