import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { describeDatabaseError, type DatabaseLog } from '../db/database.pool.ts';
import type { JobHandler, JobOptions, JobQueue } from './jobs.queue.ts';

const POLL_INTERVAL_MS = 250;

/** The SQLite job queue: one table, claimed with a guarded update, polled by this process only. */
export function createSqliteJobQueue(db: Database, clock: () => Date, log: DatabaseLog): JobQueue {
  const workers: { queue: string; handler: JobHandler; running: number; concurrency: number }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();

  /**
   * Claims a due queued job, or an active one whose worker died (its lease ran out). While a job is
   * active, run_after holds the end of its lease. SQLite-only SQL, since this queue is SQLite-only.
   */
  async function claim(queue: string) {
    const now = clock().toISOString();
    return db
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
      .executeTakeFirst();
  }

  async function runOne(handler: JobHandler, queue: string): Promise<boolean> {
    const job = await claim(queue);
    if (!job) return false;
    try {
      await handler(JSON.parse(job.data));
      await db.updateTable('jobs').set({ state: 'completed' }).where('id', '=', job.id).execute();
    } catch (error) {
      const retry = job.attempts <= job.retry_limit;
      const delayMs = job.retry_delay_seconds * 2 ** (job.attempts - 1) * 1000;
      await db
        .updateTable('jobs')
        .set({
          state: retry ? 'queued' : 'failed',
          run_after: new Date(clock().getTime() + delayMs).toISOString(),
          last_error: String((error as Error)?.message ?? error).slice(0, 500),
        })
        .where('id', '=', job.id)
        .execute();
    }
    return true;
  }

  /**
   * Starts one working slot per queue that has room; a slot that finds a job asks for another, so
   * slots fill up only while there is work, and an idle queue costs one look per poll.
   */
  function tick() {
    for (const worker of workers) {
      if (stopped || worker.running >= worker.concurrency) continue;
      worker.running += 1;
      const run = (async () => {
        while (!stopped && (await runOne(worker.handler, worker.queue))) setImmediate(tick);
      })()
        // Only claiming or recording a job can fail here (a handler's error is recorded above). The
        // next poll tries again and an unrecorded job is claimed again once its lease runs out.
        .catch((error) => log.warn(describeDatabaseError(error), 'job queue (SQLite) error; it retries'))
        .finally(() => {
          worker.running -= 1;
          inFlight.delete(run);
        });
      inFlight.add(run);
    }
  }

  return {
    async send(queue, data, options: JobOptions) {
      await db
        .insertInto('jobs')
        .values({
          id: randomBytes(12).toString('hex'),
          queue,
          data: JSON.stringify(data),
          state: 'queued',
          attempts: 0,
          retry_limit: options.retryLimit,
          retry_delay_seconds: options.retryDelaySeconds,
          expire_seconds: options.expireSeconds,
          run_after: new Date(clock().getTime() + (options.startAfterSeconds ?? 0) * 1000).toISOString(),
        })
        .execute();
      setImmediate(tick);
    },
    async work(queue, concurrency, handler) {
      workers.push({ queue, handler, running: 0, concurrency });
      timer ??= setInterval(tick, POLL_INTERVAL_MS);
      timer.unref();
      setImmediate(tick);
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
