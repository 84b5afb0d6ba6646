import { sql } from 'kysely';
import type { Database } from '../../shared/db/database.ts';
import type { SessionsTable } from './sessions.tables.ts';

export const createSessionsRepository = (db: Database) => ({
  async insert(row: SessionsTable): Promise<void> {
    await db.insertInto('sessions').values(row).execute();
  },

  findByHash: (idHash: string) =>
    db
      .selectFrom('sessions as s')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .select(['s.id_hash', 's.account_id', 's.csrf_token', 's.expires_at', 'a.email'])
      .where('s.id_hash', '=', idHash)
      .executeTakeFirst(),

  async delete(idHash: string): Promise<void> {
    await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  },

  /** Returns how many sessions it ended. */
  async deleteForAccount(accountId: string): Promise<number> {
    const result = await db.deleteFrom('sessions').where('account_id', '=', accountId).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  async deleteExpired(now: string): Promise<void> {
    await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  },

  async recordFailure(row: { id: string; email: string; ip: string; created_at: string }): Promise<void> {
    await db.insertInto('login_failures').values(row).execute();
  },

  async countFailures(column: 'email' | 'ip', value: string, since: string): Promise<number> {
    const row = await db
      .selectFrom('login_failures')
      .select(sql<number>`count(*)`.as('n'))
      .where(column, '=', value)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async clearFailures(email: string): Promise<void> {
    await db.deleteFrom('login_failures').where('email', '=', email).execute();
  },

  async pruneFailures(before: string): Promise<void> {
    await db.deleteFrom('login_failures').where('created_at', '<=', before).execute();
  },
});
