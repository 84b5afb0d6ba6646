/** The shapes of a post to Slack or Discord and of its classified answer (chat.client.ts, slack.ts, discord.ts). */
export type ChatKind = 'slack' | 'discord';

export type ChatOutcome =
  | { outcome: 'sent'; status: number; answer: string; messageId: string | null }
  | { outcome: 'rate_limited'; status: 429; answer: string; retryAfterMs: number }
  | { outcome: 'gone'; status: number; answer: string; reason: string }
  | { outcome: 'failed'; status: number | null; answer: string; retryable: boolean; error: string };

export interface ChatClientOptions {
  timeoutMs: number;
  /** A stated wait longer than this is cut to it: a misread unit must not park a destination for days. */
  maxRetryAfterMs: number;
  /** Tests only; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** What a classifier is given: the whole body (for parsing) and its clipped, redacted form (to record). */
export interface ChatAnswer {
  status: number;
  body: string;
  answer: string;
  retryAfter: string | null;
}
