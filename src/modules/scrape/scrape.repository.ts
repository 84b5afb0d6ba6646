import { sql, type Kysely } from 'kysely';
import { isSqlite, type Tables } from '../../shared/db/database.ts';
import type { ScrapeRow } from './scrape.tables.ts';

export const createScrapesRepository = (db: Kysely<Tables>) => ({
  async insert(row: ScrapeRow): Promise<void> {
    await db.insertInto('scrapes').values(row).execute();
  },

  /**
   * Takes a queued scrape, or a running one whose worker's lease ran out (the worker died), for
   * this worker until `leaseUntil`. Returns undefined when it is not this worker's to run.
   */
  claim: (id: string, now: string, leaseUntil: string) =>
    db
      .updateTable('scrapes')
      .set({ status: 'running', attempts: sql`attempts + 1`, lease_expires_at: leaseUntil })
      .where('id', '=', id)
      .where((w) => w.or([w('status', '=', 'queued'), w.and([w('status', '=', 'running'), w('lease_expires_at', '<', now)])]))
      .returningAll()
      .executeTakeFirst(),

  /**
   * Guarded on status and on the attempt that claimed it, so a scrape is settled (and its hold
   * captured or released) exactly once, even if a worker presumed dead wakes up late.
   */
  async settle(
    id: string,
    attempt: number,
    change: Pick<ScrapeRow, 'status' | 'results' | 'unavailable' | 'skipped' | 'charged' | 'error' | 'completed_at'>,
  ): Promise<boolean> {
    const result = await db
      .updateTable('scrapes')
      .set({ ...change, lease_expires_at: null })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('attempts', '=', attempt)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  statusOf: (id: string) => db.selectFrom('scrapes').select(['status']).where('id', '=', id).executeTakeFirst(),

  findForAccount: (accountId: string, id: string) =>
    db.selectFrom('scrapes').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst(),

  /** A page of the account's scrapes without their results, only how many there are. */
  async page(accountId: string, limit: number, beforeId?: string) {
    // The results are JSON text: PostgreSQL needs the cast, SQLite reads text as JSON already.
    const resultsJson = isSqlite(db) ? sql`results` : sql`results::json`;
    let query = db
      .selectFrom('scrapes')
      .select(['id', 'status', 'request', 'unavailable', 'skipped', 'charged', 'error', 'webhook_url', 'created_at', 'completed_at'])
      .select(sql<number>`coalesce(json_array_length(${resultsJson}), 0)`.as('result_count'))
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(limit + 1);
    if (beforeId !== undefined) query = query.where('id', '<', beforeId);
    return query.execute();
  },

  /** The results (JSON text) of the account's newest scrape that found this post, if any. */
  async newestResultsWith(accountId: string, fullname: string): Promise<string | null> {
    const row = await db
      .selectFrom('scrapes')
      .select('results')
      .where('account_id', '=', accountId)
      .where('results', 'like', `%"id":"${fullname}"%`)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.results ?? null;
  },

  /** Running scrapes whose lease ran out, and queued ones older than `queuedBefore` (their job may be lost). */
  findStalled: (now: string, queuedBefore: string) =>
    db
      .selectFrom('scrapes')
      .selectAll()
      .where((w) =>
        w.or([
          w.and([w('status', '=', 'running'), w('lease_expires_at', '<', now)]),
          w.and([w('status', '=', 'queued'), w('created_at', '<', queuedBefore)]),
        ]),
      )
      .limit(100)
      .execute(),
});
