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

  findForAccount: (accountId: string, id: string) =>
    db.selectFrom('generations').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst(),

  findAbandoned: (now: string) =>
    db.selectFrom('generations').selectAll().where('status', '=', 'running').where('lease_expires_at', '<', now).execute(),
});
