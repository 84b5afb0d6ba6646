import { SubpilotConnectionError, SubpilotError } from './errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt (so at most `maxRetries + 1` attempts). */
  maxRetries: number;
  /** The longest wait before a retry; an answer asking for longer is not waited for but thrown. */
  maxRetryWaitMs: number;
  random: () => number;
}

/** What a call is, for deciding whether sending it again is safe. */
export interface CallKind {
  /** It carries an `Idempotency-Key`: a repeat is answered from the first outcome. */
  keyed: boolean;
  /** Its method is idempotent (GET, PUT, DELETE). */
  idempotent: boolean;
}

/** 503s that say nothing was created: any call may be sent again. */
const NOTHING_DONE = new Set(['unavailable']);
/** Answers after which the work may have been done: only a keyed or idempotent call is sent again. */
const MAYBE_DONE = new Set(['answer_lost', 'outcome_unknown']);
/** The first request with this key is still running: its retry gets that request's outcome. */
const IN_PROGRESS = new Set(['idempotency.in_progress', 'generate.in_progress', 'publish.in_progress']);

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Exponential back-off from half a second, with jitter, for answers that gave no `Retry-After`. */
function backoff(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxRetryWaitMs, 500 * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + policy.random() / 2));
}

/**
 * How long to wait before sending the call again after attempt number `attempt` failed with `error`,
 * or null to give up and throw it. 429s are refused before the body is read and before any charge
 * (the API's order of checks), so every call may repeat them; an `auth.*` 429 is a bad key, which
 * waiting does not mend.
 */
export function retryDelay(error: SubpilotError | SubpilotConnectionError, attempt: number, call: CallKind, policy: RetryPolicy): number | null {
  if (attempt > policy.maxRetries) return null;
  const safe = call.keyed || call.idempotent;
  let retryable: boolean;
  let asked: number | null = null;
  if (error instanceof SubpilotConnectionError) {
    retryable = safe;
  } else {
    asked = error.retryAfterMs;
    const code = String(error.code);
    retryable =
      (error.status === 429 && !code.startsWith('auth.')) ||
      (error.status === 503 && NOTHING_DONE.has(code)) ||
      (safe && MAYBE_DONE.has(code)) ||
      // A 503 with no problem body comes from something in front of the API (a proxy, a load balancer).
      (safe && error.status === 503 && error.problem === null) ||
      (call.keyed && error.status === 409 && IN_PROGRESS.has(code));
  }
  if (!retryable) return null;
  const wait = asked ?? backoff(attempt, policy);
  return wait > policy.maxRetryWaitMs ? null : wait;
}
