import type { DatabaseTarget } from './config.ts';
import type { Database } from './database.ts';
import type { DatabaseLog } from './database.pool.ts';

export interface JobOptions {
  /** Retries after the first attempt. */
  retryLimit: number;
  /** First retry delay; doubles on each retry. */
  retryDelaySeconds: number;
  /** An active job whose worker has not finished by then is handed to another worker. */
  expireSeconds: number;
}

export type JobHandler = (data: Record<string, unknown>) => Promise<void>;

/**
 * At-least-once background jobs. Handlers must be idempotent (they are: a scrape is claimed with a
 * guarded update, a webhook delivery records each attempt). PostgreSQL uses pg-boss; SQLite, a
 * jobs table polled in-process.
 */
export interface JobQueue {
  send(queue: string, data: Record<string, unknown>, options: JobOptions): Promise<void>;
  work(queue: string, concurrency: number, handler: JobHandler): Promise<void>;
  stop(): Promise<void>;
}

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
    return createSqliteJobQueue(db, clock);
  }
  const { createPgBossJobQueue } = await import('./jobs.pgboss.ts');
  return createPgBossJobQueue(target.url, leaseSeconds, log);
}
