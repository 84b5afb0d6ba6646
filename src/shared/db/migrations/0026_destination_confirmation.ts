import type { Kysely, Migration } from 'kysely';

/**
 * Email and Telegram destinations (issue 43) start unconfirmed: an address is confirmed by a link
 * mailed to it, a Telegram chat is linked by a code the person sends to the operator's bot. The link
 * and the code are signed with SECRET_KEY (destinations.tokens.ts), so nothing of them is stored;
 * `confirm_expires_at` is when they stop working, cleared once the destination is confirmed.
 */
export const destinationConfirmationMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('destinations').addColumn('confirm_expires_at', 'text').execute();
  },
};
