import type { Schemas } from './types.js';

/** The stable codes the document lists; a newer server may add some, so any string can arrive. */
export type ErrorCode = Schemas['Problem']['code'] | (string & {});

/** The problem+json body (RFC 9457) with the members its code adds (`balance`, `required`, `errors`, …). */
export type Problem = Schemas['Problem'] & Record<string, unknown>;

/**
 * An error answer of the API. Branch on `code` (stable), show `detail` (words for a person). Carries
 * the whole problem body, the cost headers of a 402, what `Retry-After` asked, and the
 * `Idempotency-Key` the call was sent with, so a later retry can name the same call. Never the API key.
 */
export class SubpilotError extends Error {
  override readonly name = 'SubpilotError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string;
  readonly problem: Problem | null;
  /** What `Retry-After` asked, in milliseconds; null when the answer did not say. */
  readonly retryAfterMs: number | null;
  /** `Credits-Required` of a 402: what the call would have cost. */
  readonly creditsRequired: number | null;
  readonly creditsBalance: number | null;
  readonly idempotencyKey: string | null;
  /** How many times the call was sent before it gave up. */
  readonly attempts: number;

  constructor(fields: {
    status: number;
    problem: Problem | null;
    code: ErrorCode;
    detail: string;
    retryAfterMs: number | null;
    creditsRequired: number | null;
    creditsBalance: number | null;
    idempotencyKey: string | null;
    attempts: number;
  }) {
    super(`${fields.status} ${fields.code}: ${fields.detail}`);
    this.code = fields.code;
    this.status = fields.status;
    this.detail = fields.detail;
    this.problem = fields.problem;
    this.retryAfterMs = fields.retryAfterMs;
    this.creditsRequired = fields.creditsRequired;
    this.creditsBalance = fields.creditsBalance;
    this.idempotencyKey = fields.idempotencyKey;
    this.attempts = fields.attempts;
  }
}

/**
 * No answer came: the connection failed or was cut, or the attempt timed out. A call with an
 * `idempotencyKey` may have been carried out; calling again with that key (the `idempotencyKey` option)
 * gets its outcome and never pays twice.
 */
export class SubpilotConnectionError extends Error {
  override readonly name = 'SubpilotConnectionError';
  readonly code = 'connection';
  readonly idempotencyKey: string | null;
  readonly attempts: number;

  constructor(message: string, fields: { cause: unknown; idempotencyKey: string | null; attempts: number }) {
    super(message, { cause: fields.cause });
    this.idempotencyKey = fields.idempotencyKey;
    this.attempts = fields.attempts;
  }
}

/** A webhook request that subpilot did not sign, or signed too long ago: answer it 400 and do nothing. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: 'missing_headers' | 'timestamp' | 'signature' | 'body',
    message: string,
  ) {
    super(message);
  }
}
