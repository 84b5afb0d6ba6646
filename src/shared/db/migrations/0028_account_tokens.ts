import type { Kysely, Migration } from 'kysely';

/**
 * The links mailed to a person (issue 44): the confirmation of a sign-up and a password reset. A row
 * is written when the form is posted, and its mail job adds the link's SHA-256 (`token_hash`) when it
 * writes the mail, so the link itself is never stored. A sign-up keeps the password's argon2 hash
 * until it is confirmed, and the SHA-256 of the form cookie of the browser that signed up (that
 * browser confirms without typing the password again). `used_at` makes a link single-use.
 */
export const accountTokensMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('account_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text')
      .addColumn('password_hash', 'text')
      .addColumn('browser_hash', 'text')
      .addColumn('token_hash', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('mailed_at', 'text')
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('account_tokens_token').on('account_tokens').column('token_hash').unique().execute();
    await db.schema.createIndex('account_tokens_email').on('account_tokens').columns(['purpose', 'email', 'mailed_at']).execute();
    await db.schema.createIndex('account_tokens_expiry').on('account_tokens').column('expires_at').execute();
  },
};
