import type { Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';
import type { GenerationsTable } from './generate.tables.ts';

export type GenerationRow = GenerationsTable;

export const createGenerationsRepository = (db: Kysely<Tables>) => ({
  async insert(row: GenerationRow): Promise<void> {
    await db.insertInto('generations').values(row).execute();
  },

  /** Guarded on status, so a generation is settled (and refunded) once, however many parties try. */
  async settle(
    id: string,
    change: Pick<GenerationRow, 'status' | 'title' | 'body' | 'model' | 'usage' | 'charged' | 'error' | 'completed_at'>,
  ): Promise<boolean> {
    const result = await db
      .updateTable('generations')
      .set({ ...change, lease_expires_at: null })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /** A person's new text for a completed draft; false when it is not (or no longer) completed. */
  async edit(id: string, change: Pick<GenerationRow, 'title' | 'body' | 'edited_at'>): Promise<boolean> {
    const result = await db.updateTable('generations').set(change).where('id', '=', id).where('status', '=', 'completed').executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /** A running generation's lease from now, when its model call really starts; false when recovery already settled it. */
  async renewLease(id: string, until: string): Promise<boolean> {
    const result = await db.updateTable('generations').set({ lease_expires_at: until }).where('id', '=', id).where('status', '=', 'running').executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  findForAccount: (accountId: string, id: string) =>
    db.selectFrom('generations').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst(),

  /** The account's generations, newest first: `limit` + 1 rows, the extra one saying whether more follow. */
  async page(accountId: string, limit: number, beforeId?: string) {
    let query = db.selectFrom('generations').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').limit(limit + 1);
    if (beforeId !== undefined) query = query.where('id', '<', beforeId);
    return query.execute();
  },

  findAbandoned: (now: string) =>
    db.selectFrom('generations').selectAll().where('status', '=', 'running').where('lease_expires_at', '<', now).execute(),
});
