export interface JobsTable {
  id: string;
  queue: string;
  data: string;
  state: 'queued' | 'active' | 'completed' | 'failed';
  attempts: number;
  retry_limit: number;
  retry_delay_seconds: number;
  expire_seconds: number;
  run_after: string;
  last_error: string | null;
}

declare module '../db/database.ts' {
  interface Tables {
    jobs: JobsTable;
  }
}
