import type { Kysely } from 'kysely';
import type { ScrapesTable, Tables } from '../../app/database.ts';

export type ScrapeRow = ScrapesTable;

export const createScrapesRepository = (db: Kysely<Tables>) => ({
  async insert(row: ScrapeRow): Promise<void> {
    await db.insertInto('scrapes').values(row).execute();
  },

  /** Guarded on status, so a scrape is settled (and refunded) once, however many parties try. */
  async settle(
    id: string,
    change: Pick<ScrapeRow, 'status' | 'results' | 'unavailable' | 'charged' | 'error' | 'completed_at'>,
  ): Promise<boolean> {
    const result = await db
      .updateTable('scrapes')
      .set({ ...change, lease_expires_at: null })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  findForAccount: (accountId: string, id: string) =>
    db.selectFrom('scrapes').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst(),

  async page(accountId: string, limit: number, beforeId?: string) {
    let query = db
      .selectFrom('scrapes')
      .select(['id', 'status', 'request', 'unavailable', 'charged', 'error', 'created_at', 'completed_at'])
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(limit + 1);
    if (beforeId !== undefined) query = query.where('id', '<', beforeId);
    return query.execute();
  },

  findAbandoned: (now: string) =>
    db
      .selectFrom('scrapes')
      .select(['id', 'account_id', 'key_id', 'charged'])
      .where('status', '=', 'running')
      .where('lease_expires_at', '<', now)
      .execute(),
});
