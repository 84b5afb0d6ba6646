import type { Generated, Selectable } from 'kysely';
import type { Via } from '../../shared/via.ts';
export interface ScrapesTable {
  id: string;
  account_id: string;
  key_id: string | null;
  status: 'queued' | 'running' | 'completed' | 'failed';
  request: string;
  results: string | null;
  unavailable: string | null;
  price: number;
  charged: number;
  error: string | null;
  lease_expires_at: string | null;
  created_at: string;
  completed_at: string | null;
  attempts: Generated<number>;
  webhook_url: string | null;
  /** Posts Reddit sent that could not be read and were left out. */
  skipped: Generated<number>;
  /** The interface of the call that made it (`Caller.via`); null for rows older than migration 0017 made without a key. */
  via: Via | null;
}

export type ScrapeRow = Selectable<ScrapesTable>;

declare module '../../shared/db/database.ts' {
  interface Tables {
    scrapes: ScrapesTable;
  }
}
