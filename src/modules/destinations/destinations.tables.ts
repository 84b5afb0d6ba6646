import type { Generated } from 'kysely';

export type DestinationKind = 'slack' | 'discord' | 'email' | 'telegram';
/** The kinds that are a webhook URL of the service's own. */
export type WebhookKind = 'slack' | 'discord';
/** `unconfirmed`: an address whose link was not yet followed, a Telegram chat not yet linked; nothing but that is sent to it. */
export type DestinationStatus = 'unconfirmed' | 'active' | 'off';

export interface DestinationsTable {
  id: string;
  account_id: string;
  kind: DestinationKind;
  name: string;
  /**
   * Where messages go, sealed with SECRET_KEY (the account id as context): the webhook URL (it is the
   * destination's password), the email address, the Telegram chat id (empty until the chat is linked).
   */
  url_sealed: string;
  /** What answers show of it: a webhook URL's last four characters after `…/`, the address, the chat's name. */
  url_hint: string;
  status: DestinationStatus;
  /** Why it was switched off (the channel said it is gone), in words for its owner. */
  off_reason: string | null;
  /** The pace: no message before this time (after the last send, or a 429's stated wait). */
  next_send_at: string;
  /** The lease of the worker draining it; null or past when none is. */
  draining_until: string | null;
  created_at: string;
  /** Until when the signed link that confirms an address or links a chat works; null once confirmed. */
  confirm_expires_at: string | null;
}

export interface OutboxTable {
  id: string;
  destination_id: string;
  /** What the message is about (`test:<id>`, `match:<id>`): one message per subject and destination. */
  subject: string;
  /** The message's JSON body as the channel takes it. */
  message: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  /** Attempts that failed (5xx, no answer); a 429 is not one: its wait is honoured, not counted. */
  failures: number;
  /** Due time, or the lease of the attempt in flight. */
  next_attempt_at: string;
  created_at: string;
  sent_at: string | null;
  /** The channel's id of the message where it gives one (Discord); null where it gives none (Slack). */
  receipt: string | null;
  /** Why it failed for good. */
  error: string | null;
}

export interface OutboxAttemptsTable {
  id: Generated<number>;
  outbox_id: string;
  attempted_at: string;
  status_code: number | null;
  /** The channel's answer, clipped. */
  answer: string;
  error: string | null;
  duration_ms: number;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    destinations: DestinationsTable;
    outbox: OutboxTable;
    outbox_attempts: OutboxAttemptsTable;
  }
}
