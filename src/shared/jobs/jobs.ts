import type { DatabaseTarget } from '../config/config.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseLog } from '../db/database.pool.ts';
import type { JobQueue } from './jobs.queue.ts';

/** Starts the real queue on first use, so operator commands and API-only tests never start pg-boss. */
export function createLazyJobQueue(start: () => Promise<JobQueue>): JobQueue {
  let started: Promise<JobQueue> | undefined;
  const queue = () => (started ??= start());
  return {
    send: async (name, data, options) => (await queue()).send(name, data, options),
    work: async (name, concurrency, handler) => (await queue()).work(name, concurrency, handler),
    stop: async () => {
      if (started) await (await started).stop();
    },
  };
}

export async function createJobQueue(
  target: DatabaseTarget,
  db: Database,
  clock: () => Date,
  leaseSeconds: number,
  log: DatabaseLog,
): Promise<JobQueue> {
  if (target.dialect === 'sqlite') {
    const { createSqliteJobQueue } = await import('./jobs.sqlite.ts');
    return createSqliteJobQueue(db, clock, log);
  }
  const { createPgBossJobQueue } = await import('./jobs.pgboss.ts');
  return createPgBossJobQueue(target.url, leaseSeconds, log);
}
