import type { Kysely, Migration } from 'kysely';

/**
 * A signing secret can be rolled (issue 44): the new one signs every delivery at once, and the one it
 * replaced signs beside it (a second `v1,` signature, as Standard Webhooks allows) until
 * `webhook_secret_previous_until`, so a receiver has a day to switch. Sealed like the current one.
 */
export const webhookSecretRollMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('accounts').addColumn('webhook_secret_previous', 'text').execute();
    await db.schema.alterTable('accounts').addColumn('webhook_secret_previous_until', 'text').execute();
  },
};
