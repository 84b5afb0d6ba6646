import type { Database } from '../../shared/db/database.ts';

export const createAccountsRepository = (db: Database) => ({
  async insert(row: { id: string; email: string; password_hash: string | null; created_at: string }) {
    await db.insertInto('accounts').values({ ...row, balance: 0 }).execute();
  },

  findByEmail: (email: string) =>
    db.selectFrom('accounts').select(['id', 'email', 'balance', 'created_at']).where('email', '=', email).executeTakeFirst(),

  /** The only read of password_hash, kept apart so other reads never carry it around. */
  findCredentials: (email: string) =>
    db.selectFrom('accounts').select(['id', 'email', 'password_hash']).where('email', '=', email).executeTakeFirst(),

  findById: (id: string) =>
    db.selectFrom('accounts').select(['id', 'email', 'balance', 'created_at']).where('id', '=', id).executeTakeFirst(),
});
