import type { Insertable } from 'kysely';
import type { Database } from '../../../shared/db/database.ts';
import type { AlertMatch } from './alerts.messages.ts';
import type { MonitorRoutesTable } from './alerts.tables.ts';

const ROUTE = ['monitor_id', 'destination_id', 'frequency', 'at', 'time_zone', 'next_digest_at', 'created_at'] as const;

export const createAlertsRepository = (db: Database) => ({
  /** The account's monitor by id, with the storage order of its newest match (where a new route starts). */
  monitor: (accountId: string, id: string) =>
    db
      .selectFrom('monitors')
      .select((eb) => ['id', 'name', eb.selectFrom('monitor_matches').select((m) => m.fn.max('seq').as('seq')).where('monitor_id', '=', id).as('last_seq')])
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst(),

  destination: (accountId: string, id: string) =>
    db.selectFrom('destinations').select(['id', 'kind', 'status']).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst(),

  find: (monitorId: string, destinationId: string) =>
    db.selectFrom('monitor_routes').select(ROUTE).where('monitor_id', '=', monitorId).where('destination_id', '=', destinationId).executeTakeFirst(),

  list: (monitorId: string) => db.selectFrom('monitor_routes').select(ROUTE).where('monitor_id', '=', monitorId).orderBy('created_at').orderBy('destination_id').execute(),

  /** A new route, or a changed one: its cursor stays where it was (nothing is sent twice, nothing skipped). */
  upsert: (row: Insertable<MonitorRoutesTable>) =>
    db
      .insertInto('monitor_routes')
      .values(row)
      .onConflict((c) => c.columns(['monitor_id', 'destination_id']).doUpdateSet({ frequency: row.frequency, at: row.at, time_zone: row.time_zone, next_digest_at: row.next_digest_at }))
      .execute(),

  async remove(monitorId: string, destinationId: string) {
    const result = await db.deleteFrom('monitor_routes').where('monitor_id', '=', monitorId).where('destination_id', '=', destinationId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /**
   * Routes with something to do now: instant ones whose monitor stored a match after their cursor
   * (so an idle pass costs this one query, not one per route), and digests whose window has ended.
   */
  due: (now: string) =>
    db
      .selectFrom('monitor_routes')
      .innerJoin('monitors', 'monitors.id', 'monitor_routes.monitor_id')
      .innerJoin('destinations', 'destinations.id', 'monitor_routes.destination_id')
      .select([
        'monitor_routes.monitor_id',
        'monitor_routes.destination_id',
        'monitor_routes.frequency',
        'monitor_routes.at',
        'monitor_routes.time_zone',
        'monitor_routes.cursor_seq',
        'monitor_routes.next_digest_at',
        'monitors.name as monitor_name',
        'destinations.kind',
        'destinations.status',
      ])
      .where((w) =>
        w.or([
          w.and([
            w('monitor_routes.frequency', '=', 'instant'),
            w.exists(
              w
                .selectFrom('monitor_matches')
                .select('monitor_matches.seq')
                .whereRef('monitor_matches.monitor_id', '=', 'monitor_routes.monitor_id')
                .whereRef('monitor_matches.seq', '>', 'monitor_routes.cursor_seq')
                .where('monitor_matches.filtered', '=', 0),
            ),
          ]),
          w('monitor_routes.next_digest_at', '<=', now),
        ]),
      )
      .execute(),

  /** Delivered matches after `cursor` (storage order) with their drafts; filtered ones are never sent. */
  matchesAfter: (monitorId: string, cursor: number, limit: number) =>
    db
      .selectFrom('monitor_matches as m')
      .leftJoin('generations as g', 'g.id', 'm.draft_id')
      .select(['m.seq', 'm.id', 'm.monitor_id', 'm.type', 'm.subreddit', 'm.author', 'm.title', 'm.body', 'm.permalink', 'm.relevance', 'm.relevance_reason', 'm.draft_id', 'g.body as draft_body', 'g.status as draft_status'])
      .where('m.monitor_id', '=', monitorId)
      .where('m.seq', '>', cursor)
      .where('m.filtered', '=', 0)
      .orderBy('m.seq')
      .limit(limit)
      .execute() as Promise<(AlertMatch & { seq: number | string; draft_status: string | null })[]>,

  /** Moves the route past what it handled, guarded on where it was: of two passes at once, one moves it. */
  async advance(route: { monitor_id: string; destination_id: string; cursor_seq: number | string; next_digest_at: string | null }, cursor: number, nextDigestAt: string | null) {
    const result = await db
      .updateTable('monitor_routes')
      .set({ cursor_seq: cursor, next_digest_at: nextDigestAt })
      .where('monitor_id', '=', route.monitor_id)
      .where('destination_id', '=', route.destination_id)
      .where('cursor_seq', '=', route.cursor_seq)
      .where((w) => (route.next_digest_at === null ? w('next_digest_at', 'is', null) : w('next_digest_at', '=', route.next_digest_at)))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },
});
