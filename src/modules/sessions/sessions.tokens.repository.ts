import type { Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';
import type { AccountTokensTable, TokenPurpose } from './sessions.tables.ts';

/** The mailed links of sign-up and password reset (sessions.tables.ts, `account_tokens`). */
export const createAccountTokensRepository = (db: Kysely<Tables>) => ({
  async insert(row: AccountTokensTable): Promise<void> {
    await db.insertInto('account_tokens').values(row).execute();
  },

  find: (id: string) => db.selectFrom('account_tokens').selectAll().where('id', '=', id).executeTakeFirst(),

  findByToken: (purpose: TokenPurpose, tokenHash: string) =>
    db.selectFrom('account_tokens').selectAll().where('purpose', '=', purpose).where('token_hash', '=', tokenHash).executeTakeFirst(),

  /** The link's hash, written before its mail is sent; a retried mail replaces it (the older link then stops working). */
  async setToken(id: string, change: { tokenHash: string; accountId: string | null; expiresAt: string }): Promise<void> {
    await db
      .updateTable('account_tokens')
      .set({ token_hash: change.tokenHash, account_id: change.accountId, expires_at: change.expiresAt })
      .where('id', '=', id)
      .execute();
  },

  /** A mail that carries no link (a sign-up for an address that has an account) keeps no password either. */
  async markMailed(id: string, at: string, keepsPassword: boolean): Promise<void> {
    await db
      .updateTable('account_tokens')
      .set(keepsPassword ? { mailed_at: at } : { mailed_at: at, password_hash: null })
      .where('id', '=', id)
      .execute();
  },

  /** How many mails of this purpose went to this address since `since`. */
  async mailedSince(purpose: TokenPurpose, email: string, since: string): Promise<number> {
    const row = await db
      .selectFrom('account_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('purpose', '=', purpose)
      .where('email', '=', email)
      .where('mailed_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The older links of this purpose to this address stop working: only the newest mail's link does. */
  async supersede(purpose: TokenPurpose, email: string, newest: string): Promise<void> {
    await db
      .updateTable('account_tokens')
      .set({ token_hash: null, password_hash: null })
      .where('purpose', '=', purpose)
      .where('email', '=', email)
      .where('id', '!=', newest)
      .where('used_at', 'is', null)
      .execute();
  },

  /** Uses the link once: false when it was used already or has expired, also by a concurrent request. */
  async consume(id: string, at: string): Promise<boolean> {
    const result = await db
      .updateTable('account_tokens')
      .set({ used_at: at, password_hash: null })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  async delete(id: string): Promise<void> {
    await db.deleteFrom('account_tokens').where('id', '=', id).execute();
  },

  async deleteExpired(now: string): Promise<void> {
    await db.deleteFrom('account_tokens').where('expires_at', '<=', now).execute();
  },
});
