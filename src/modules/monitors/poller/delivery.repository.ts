/**
 * The stored matches as poller.delivery.ts writes and sends them: each names the monitor.matches
 * delivery it goes out in (`webhook_batch`), and `notified_at` says that delivery was enqueued, so the
 * matches are their own webhook outbox. The API's reads of them live in monitors.repository.ts.
 */
import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../../../shared/db/database.ts';
import type { MonitorMatchesTable } from '../monitors.tables.ts';

export const createDeliveryRepository = (db: Kysely<Tables>) => ({
  /** Stores a match; false when the monitor already has this thing (a re-read after a crash), which stays as it was. */
  async insertMatch(match: Insertable<MonitorMatchesTable>): Promise<boolean> {
    const inserted = await db
      .insertInto('monitor_matches')
      .values(match)
      .onConflict((oc) => oc.columns(['monitor_id', 'reddit_id']).doNothing())
      .returning('seq')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  /** Up to `limit` deliveries stored but not enqueued yet, with their monitor. */
  unsentBatches: (limit: number) =>
    db
      .selectFrom('monitor_matches')
      .select(['webhook_batch', 'monitor_id'])
      .distinct()
      .where('notified_at', 'is', null)
      .where('webhook_batch', 'is not', null)
      .limit(limit)
      .execute(),

  /** The matches of one delivery, in storage order. */
  batch: (batch: string) => db.selectFrom('monitor_matches').selectAll().where('webhook_batch', '=', batch).orderBy('seq').execute(),

  async markNotified(batch: string, at: string): Promise<void> {
    await db.updateTable('monitor_matches').set({ notified_at: at }).where('webhook_batch', '=', batch).execute();
  },
});
