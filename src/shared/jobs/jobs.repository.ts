import { sql, type Insertable } from 'kysely';
import type { Database } from '../db/database.ts';
import type { JobsTable } from './jobs.tables.ts';

/** The SQLite job queue's table (jobs.sqlite.ts). SQLite-only SQL, since that queue is SQLite-only. */
export const createJobsRepository = (db: Database) => ({
  /**
   * Claims a due queued job, or an active one whose worker died (its lease ran out), with one guarded
   * update. While a job is active, run_after holds the end of its lease.
   */
  claim: (queue: string, now: string) =>
    db
      .updateTable('jobs')
      .set({
        state: 'active',
        attempts: sql`attempts + 1`,
        run_after: sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${now}, '+' || expire_seconds || ' seconds')`,
      })
      .where('id', '=', (eb) =>
        eb
          .selectFrom('jobs')
          .select('id')
          .where('queue', '=', queue)
          .where('state', 'in', ['queued', 'active'])
          .where('run_after', '<=', now)
          .orderBy('run_after')
          .limit(1),
      )
      .returningAll()
      .executeTakeFirst(),

  async complete(id: string): Promise<void> {
    await db.updateTable('jobs').set({ state: 'completed' }).where('id', '=', id).execute();
  },

  /** A failed attempt: queued again from `runAfter`, or failed for good when `retry` is false. */
  async failed(id: string, outcome: { retry: boolean; runAfter: string; error: string }): Promise<void> {
    await db
      .updateTable('jobs')
      .set({ state: outcome.retry ? 'queued' : 'failed', run_after: outcome.runAfter, last_error: outcome.error })
      .where('id', '=', id)
      .execute();
  },

  async insert(job: Insertable<JobsTable>): Promise<void> {
    await db.insertInto('jobs').values(job).execute();
  },
});
