/**
 * The API's reads and writes of monitors: their rows, their pages of matches, and what their health is
 * made of (the poller's cursors and the gaps it recorded). The poller's own writes live in
 * poller/poller.repository.ts.
 */
import { sql, type Kysely, type Updateable } from 'kysely';
import { isSqlite, type Tables } from '../../shared/db/database.ts';
import type { MonitorRow, MonitorsTable, MonitorSource } from './monitors.tables.ts';

/** How many gaps a monitor's health shows. */
export const HEALTH_GAPS = 20;

export const createMonitorsRepository = (db: Kysely<Tables>) => ({
  async insert(row: MonitorRow): Promise<void> {
    await db.insertInto('monitors').values(row).execute();
  },

  /**
   * Holds the account's row until the transaction ends, so two creates or edits of one account cannot
   * both pass its limits. On SQLite the transaction's BEGIN IMMEDIATE already lets one writer in at a time.
   */
  async lockAccount(accountId: string): Promise<void> {
    if (isSqlite(db)) return;
    await db.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
  },

  /** Every monitor of the account, paused ones included, with its subreddits: what its limits count. */
  subredditsOfAccount: (accountId: string) => db.selectFrom('monitors').select(['id', 'subreddits']).where('account_id', '=', accountId).execute(),

  findForAccount: (accountId: string, id: string) =>
    db.selectFrom('monitors').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst(),

  /** Changes only the given columns, so an edit never undoes a pause the poller made meanwhile. */
  async update(accountId: string, id: string, change: Updateable<MonitorsTable>): Promise<boolean> {
    const result = await db.updateTable('monitors').set(change).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Deletes the monitor with its matches and gaps (spelt out, not left to the foreign keys' cascade). */
  async remove(accountId: string, id: string): Promise<boolean> {
    const owned = await db.selectFrom('monitors').select('id').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (!owned) return false;
    await db.deleteFrom('monitor_matches').where('monitor_id', '=', id).execute();
    await db.deleteFrom('monitor_gaps').where('monitor_id', '=', id).execute();
    const result = await db.deleteFrom('monitors').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** A page of the account's monitors, newest first (ids sort by creation time). */
  async page(accountId: string, limit: number, beforeId?: string) {
    let query = db.selectFrom('monitors').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').limit(limit + 1);
    if (beforeId !== undefined) query = query.where('id', '<', beforeId);
    return query.execute();
  },

  /** Every monitor of the account, newest first, with how many matches each stored since `since`. */
  listWithMatchesSince: (accountId: string, since: string) =>
    db
      .selectFrom('monitors as m')
      .selectAll('m')
      .select((eb) =>
        eb
          .selectFrom('monitor_matches as x')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('x.monitor_id', '=', 'm.id')
          .where('x.found_at', '>=', since)
          .as('matches_since'),
      )
      .where('m.account_id', '=', accountId)
      .orderBy('m.id', 'desc')
      .execute(),

  /**
   * For each of these monitors of the account, in one query for a whole page: how many matches it
   * stored since `since` and when it stored its last. Both read the (monitor_id, found_at) index, so the
   * cost is today's matches, not all of them.
   */
  activity: (accountId: string, monitorIds: string[], since: string) =>
    monitorIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('monitors as m')
          .select('m.id')
          .select((eb) => [
            eb
              .selectFrom('monitor_matches as x')
              .select(eb.fn.countAll<number>().as('n'))
              .whereRef('x.monitor_id', '=', 'm.id')
              .where('x.found_at', '>=', since)
              .as('matches_since'),
            eb
              .selectFrom('monitor_matches as y')
              .select((inner) => inner.fn.max('y.found_at').as('at'))
              .whereRef('y.monitor_id', '=', 'm.id')
              .as('last_found_at'),
          ])
          .where('m.account_id', '=', accountId)
          .where('m.id', 'in', monitorIds)
          .execute(),

  /** The read state of these lower-case subreddits for these sources. */
  cursors: (names: string[], sources: MonitorSource[]) =>
    names.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('monitor_cursors')
          .select(['subreddit', 'source', 'read_at', 'error', 'error_at'])
          .where('subreddit', 'in', names)
          .where('source', 'in', sources)
          .execute(),

  /** The newest HEALTH_GAPS gaps of each of these monitors, newest first. */
  gaps(monitorIds: string[]) {
    if (monitorIds.length === 0) return Promise.resolve([]);
    const ranked = db
      .selectFrom('monitor_gaps')
      .selectAll()
      .select(sql<number>`row_number() over (partition by monitor_id order by seq desc)`.as('rank'))
      .where('monitor_id', 'in', monitorIds)
      .as('g');
    return db.selectFrom(ranked).selectAll().where('rank', '<=', HEALTH_GAPS).orderBy('seq', 'desc').execute();
  },

  /** The destinations these monitors are routed to that get nothing now (switched off, unconfirmed): their health shows them. */
  silentDestinations: (monitorIds: string[]) =>
    monitorIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('monitor_routes')
          .innerJoin('destinations', 'destinations.id', 'monitor_routes.destination_id')
          .select(['monitor_routes.monitor_id', 'destinations.id', 'destinations.name', 'destinations.kind', 'destinations.status', 'destinations.off_reason'])
          .where('monitor_routes.monitor_id', 'in', monitorIds)
          .where('destinations.status', '!=', 'active')
          .orderBy('destinations.id')
          .execute(),

  /** The match's place in storage order, if it is one of this monitor's. */
  matchSeq: (monitorId: string, matchId: string) =>
    db.selectFrom('monitor_matches').select('seq').where('id', '=', matchId).where('monitor_id', '=', monitorId).executeTakeFirst(),

  /** Matches of a monitor from a point in storage order: newest first below it, or oldest first above it; filtered ones only when asked. */
  matchesPage(monitorId: string, limit: number, from: { direction: 'older' | 'newer'; seq?: number }, filtered: 'with' | 'without' | 'only' = 'without') {
    let query = db
      .selectFrom('monitor_matches')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .orderBy('seq', from.direction === 'older' ? 'desc' : 'asc')
      .limit(limit + 1);
    if (from.seq !== undefined) query = query.where('seq', from.direction === 'older' ? '<' : '>', from.seq);
    if (filtered !== 'with') query = query.where('filtered', '=', filtered === 'only' ? 1 : 0);
    return query.execute();
  },

  /** Sorts the judged matches of a monitor again against a new bar: no judging, the scores stand. */
  async resort(monitorId: string, bar: number): Promise<void> {
    await db
      .updateTable('monitor_matches')
      .set({ filtered: sql<number>`case when relevance < ${bar} then 1 else 0 end` })
      .where('monitor_id', '=', monitorId)
      .where('relevance', 'is not', null)
      .execute();
  },
});
