export interface JobOptions {
  /** Retries after the first attempt. */
  retryLimit: number;
  /** First retry delay; doubles on each retry. */
  retryDelaySeconds: number;
  /** An active job whose worker has not finished by then is handed to another worker. */
  expireSeconds: number;
  /** Not to run before this many seconds from now (a retry schedule its caller keeps itself). */
  startAfterSeconds?: number;
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
