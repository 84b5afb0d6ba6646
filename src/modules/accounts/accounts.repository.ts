import { sql } from 'kysely';
import type { Database } from '../../shared/db/database.ts';

export const createAccountsRepository = (db: Database) => ({
  /** False when the email is taken, also by a concurrent insert: the unique index decides, not a prior read. */
  async insert(row: { id: string; email: string; password_hash: string | null; created_at: string }): Promise<boolean> {
    const inserted = await db
      .insertInto('accounts')
      .values({ ...row, balance: 0 })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
  },

  findByEmail: (email: string) =>
    db.selectFrom('accounts').select(['id', 'email', 'balance', 'created_at']).where('email', '=', email).executeTakeFirst(),

  /** The only read of password_hash, kept apart so other reads never carry it around. */
  findCredentials: (email: string) =>
    db.selectFrom('accounts').select(['id', 'email', 'password_hash']).where('email', '=', email).executeTakeFirst(),

  findById: (id: string) =>
    db.selectFrom('accounts').select(['id', 'email', 'balance', 'created_at']).where('id', '=', id).executeTakeFirst(),

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  },

  /** Every account, oldest first, with its count of active keys (one query, for the operator's list). */
  list: () =>
    db
      .selectFrom('accounts as a')
      .select(['a.id', 'a.email', 'a.balance', 'a.created_at'])
      .select(sql<number>`(select count(*) from api_keys k where k.account_id = a.id and k.revoked_at is null)`.as('active_keys'))
      .orderBy('a.created_at')
      .orderBy('a.id')
      .execute(),
});
