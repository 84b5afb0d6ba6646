import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { describeDatabaseError } from '../db/database.errors.ts';
import type { DatabaseLog } from '../db/database.pool.ts';
import type { JobHandler, JobOptions, JobQueue } from './jobs.queue.ts';
import { createJobsRepository } from './jobs.repository.ts';

const POLL_INTERVAL_MS = 250;

/** The SQLite job queue: one table, claimed with a guarded update, polled by this process only. */
export function createSqliteJobQueue(db: Database, clock: () => Date, log: DatabaseLog): JobQueue {
  const workers: { queue: string; handler: JobHandler; running: number; concurrency: number }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const jobs = createJobsRepository(db);

  async function runOne(handler: JobHandler, queue: string): Promise<boolean> {
    const job = await jobs.claim(queue, clock().toISOString());
    if (!job) return false;
    try {
      await handler(JSON.parse(job.data));
      await jobs.complete(job.id);
    } catch (error) {
      const delayMs = job.retry_delay_seconds * 2 ** (job.attempts - 1) * 1000;
      await jobs.failed(job.id, {
        retry: job.attempts <= job.retry_limit,
        runAfter: new Date(clock().getTime() + delayMs).toISOString(),
        error: String((error as Error)?.message ?? error).slice(0, 500),
      });
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
      await jobs.insert({
        id: randomBytes(12).toString('hex'),
        queue,
        data: JSON.stringify(data),
        state: 'queued',
        attempts: 0,
        retry_limit: options.retryLimit,
        retry_delay_seconds: options.retryDelaySeconds,
        expire_seconds: options.expireSeconds,
        run_after: new Date(clock().getTime() + (options.startAfterSeconds ?? 0) * 1000).toISOString(),
      });
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
