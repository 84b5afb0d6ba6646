import type { Generated } from 'kysely';
export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  scrape_id: string;
  url: string;
  event_type: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_attempts: WebhookAttemptsTable;
  }
}
