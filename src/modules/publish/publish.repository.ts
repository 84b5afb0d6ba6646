import { sql, type Kysely } from 'kysely';
import { isSqlite, type Database, type PublicationsTable, type Tables } from '../../app/database.ts';

export type PublicationRow = PublicationsTable;

export const createPublicationsRepository = (db: Kysely<Tables>) => ({
  async insert(row: PublicationRow): Promise<void> {
    await db.insertInto('publications').values(row).execute();
  },

  /**
   * Serialises an account's publishes inside a transaction, so the duplicate and key checks cannot
   * both pass for two concurrent requests. SQLite's BEGIN IMMEDIATE already does this.
   */
  async lockAccount(accountId: string): Promise<void> {
    if (isSqlite(db as Database)) return;
    await sql`select id from accounts where id = ${accountId} for update`.execute(db);
  },

  findByKey: (accountId: string, key: string) =>
    db
      .selectFrom('publications')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst(),

  /** A publication of the same text to the same place since `since` that did or may have gone out. */
  findRecentDuplicate: (accountId: string, contentHash: string, since: string) =>
    db
      .selectFrom('publications')
      .select('id')
      .where('account_id', '=', accountId)
      .where('content_hash', '=', contentHash)
      .where('created_at', '>=', since)
      .where('status', 'in', ['running', 'published', 'unknown'])
      .orderBy('id', 'desc')
      .executeTakeFirst(),

  /** Guarded on status, so a publication is settled (and refunded) once. */
  async settle(
    id: string,
    change: Pick<PublicationRow, 'status' | 'reddit_id' | 'permalink' | 'charged' | 'error' | 'completed_at'> & {
      freeKey: boolean;
    },
  ): Promise<boolean> {
    const { freeKey, ...rest } = change;
    const result = await db
      .updateTable('publications')
      .set({ ...rest, lease_expires_at: null, ...(freeKey ? { idempotency_key: null } : {}) })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  findForAccount: (accountId: string, id: string) =>
    db.selectFrom('publications').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst(),

  findAbandoned: (now: string) =>
    db.selectFrom('publications').selectAll().where('status', '=', 'running').where('lease_expires_at', '<', now).execute(),
});

export const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: unknown; message?: unknown };
  return e?.code === '23505' || (typeof e?.message === 'string' && e.message.includes('UNIQUE constraint failed'));
};
