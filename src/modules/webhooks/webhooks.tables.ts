import type { Generated } from 'kysely';
export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  /** Null for an event about no scrape (webhook.test). */
  scrape_id: string | null;
  url: string;
  event_type: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: string;
  delivered_at: string | null;
  /** When a pending delivery is next attempted; the webhooks module keeps this schedule, not the job queue. */
  next_attempt_at: string | null;
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
