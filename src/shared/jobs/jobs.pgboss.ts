import PgBoss from 'pg-boss';
import { describeDatabaseError } from '../db/database.errors.ts';
import type { DatabaseLog } from '../db/database.pool.ts';
import type { JobHandler, JobOptions, JobQueue } from './jobs.queue.ts';

/**
 * pg-boss keeps its tables in a schema of its own. A DATABASE_URL that pins a search_path (as the
 * tests do, one schema per test file) gets a matching pg-boss schema, so parallel runs never share jobs.
 */
export function pgBossSchemaFor(url: string): string {
  const options = new URL(url).searchParams.get('options') ?? '';
  const searchPath = /search_path=([A-Za-z0-9_]+)/.exec(options)?.[1];
  return searchPath ? `${searchPath}_pgboss` : 'pgboss';
}

export async function createPgBossJobQueue(url: string, leaseSeconds: number, log: DatabaseLog): Promise<JobQueue> {
  const boss = new PgBoss({
    connectionString: url,
    schema: pgBossSchemaFor(url),
    max: 4,
    // Expired jobs (a worker killed mid-job) are found by maintenance; run it a few times per lease.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(leaseSeconds / 3))),
    monitorStateIntervalSeconds: 60,
    schedule: false,
  });
  // pg-boss has its own pool: a lost connection, or a failed poll while the database is away, lands
  // here. pg-boss carries on and reconnects; the line says why jobs paused.
  boss.on('error', (error) => log.warn(describeDatabaseError(error), 'job queue (pg-boss) error; it retries'));
  await boss.start();
  const created = new Set<string>();
  const ensureQueue = async (queue: string) => {
    if (created.has(queue)) return;
    try {
      await boss.createQueue(queue);
      created.add(queue);
    } catch (error) {
      // Another process creating it at the same moment is harmless; anything else resurfaces on send.
      log.warn(describeDatabaseError(error), `could not create job queue ${queue}; will try again`);
    }
  };
  const workerIds: string[] = [];

  return {
    async send(queue, data, options: JobOptions) {
      await ensureQueue(queue);
      await boss.send(queue, data, {
        retryLimit: options.retryLimit,
        retryDelay: options.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: options.expireSeconds,
        startAfter: options.startAfterSeconds,
      });
      for (const id of workerIds) boss.notifyWorker(id);
    },
    async work(queue, concurrency, handler: JobHandler) {
      await ensureQueue(queue);
      for (let i = 0; i < concurrency; i++) {
        workerIds.push(
          await boss.work<Record<string, unknown>>(queue, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
            await handler(job!.data);
          }),
        );
      }
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 5000, close: true });
    },
  };
}
