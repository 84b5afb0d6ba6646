/**
 * Reddit telling us to slow down, in one place: which answers and failures are its rate limit, which
 * answers are worth another try, how long to wait
 * (Retry-After, X-Ratelimit-*, "try again in 9 minutes", backoff), the longest wait a caller is held,
 * and the 429-shaped RedditUnavailableError (with Retry-After seconds) raised instead of a longer wait,
 * whether Reddit's own limit or this server's shared budget (reddit.budget.ts) is used up.
 * Every clock reading comes from the caller's `now`, so tests can pin it.
 */
import { RedditBudgetExhaustedError, RedditUnavailableError } from './reddit.errors.ts';
import type { Answer, Attempt } from './reddit.types.ts';

const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** Waits longer than this (Retry-After, rate-limit reset) give up instead of holding the caller. */
const MAX_WAIT_MS = 30_000;

export interface RetryOptions {
  /** Extra attempts after the first. */
  maxRetries: number;
  /** The per-call timeout, named in the error when the last attempt timed out. */
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

/** Reddit's "slow down" (429 Too Many Requests), also what a used-up limit or shared budget is reported as. */
const TOO_MANY_REQUESTS = 429;

/** Whether an answer's status is Reddit's rate limit. */
export const isRateLimitStatus = (status: number | undefined) => status === TOO_MANY_REQUESTS;

/**
 * Whether a failure is a rate limit: Reddit's 429 after the retries, its X-Ratelimit-* used up
 * beyond the wait bound, or this server's shared budget (told apart by RedditBudgetExhaustedError).
 */
export const isRateLimited = (error: unknown) => error instanceof RedditUnavailableError && isRateLimitStatus(error.upstreamStatus);

/** Answers worth another try: Reddit's rate limit and its server errors. */
export const isRetryableStatus = (status: number) => isRateLimitStatus(status) || status >= 500;

const backoffMs = (retry: number) => Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** retry);

/**
 * Repeats `send` on network errors, timeouts, 429 and 5xx, up to maxRetries extra times, waiting by
 * Reddit's Retry-After on a 429 and by backoff otherwise. Then, or when Reddit asks for a wait beyond
 * the bound, a RedditUnavailableError carrying Reddit's hint and status.
 */
export async function withRetries(what: string, send: () => Promise<Attempt>, options: RetryOptions): Promise<Answer> {
  for (let retry = 0; ; retry++) {
    const result = await send();
    let message: string;
    let waitMs: number;
    let hint: number | undefined;
    let status: number | undefined;
    if (!result.ok) {
      message = result.timedOut
        ? `${what} did not answer within ${options.timeoutMs} ms`
        : `Could not reach ${what} (${result.reason})`;
      waitMs = backoffMs(retry);
    } else if (isRetryableStatus(result.status)) {
      status = result.status;
      hint = retryAfterSeconds(result.headers, status, options.now());
      message = `${what} answered HTTP ${status}`;
      waitMs = isRateLimitStatus(status) && hint !== undefined ? hint * 1000 : backoffMs(retry);
      if (waitMs > MAX_WAIT_MS) {
        throw new RedditUnavailableError(`${message} and asked to wait ${hint} s`, hint, status);
      }
    } else {
      return result;
    }
    if (retry >= options.maxRetries) {
      const attempts = retry + 1;
      throw new RedditUnavailableError(`${message} (${attempts} attempt${attempts === 1 ? '' : 's'})`, hint, status);
    }
    await options.sleep(waitMs);
  }
}

export interface RateLimitGate {
  /** Before each call: goes ahead while calls are left, waits for the reset up to the bound, else throws. */
  beforeCall(): Promise<void>;
  /** After each answer: remembers what its X-Ratelimit-Remaining / X-Ratelimit-Reset headers say. */
  note(headers: Headers): void;
}

/** Keeps one client within the calls Reddit's X-Ratelimit-* headers say are left until the reset. */
export function createRateLimitGate(options: Pick<RetryOptions, 'sleep' | 'now'>): RateLimitGate {
  let rate: { remaining: number; resetAt: number } | null = null;
  return {
    async beforeCall() {
      if (!rate) return;
      if (options.now() >= rate.resetAt) {
        rate = null;
        return;
      }
      if (rate.remaining >= 1) {
        rate.remaining -= 1; // reserve one call until the next response reports the real figure
        return;
      }
      const waitMs = rate.resetAt - options.now();
      if (waitMs > MAX_WAIT_MS) {
        const seconds = Math.ceil(waitMs / 1000);
        throw new RedditUnavailableError(`Reddit's rate limit is used up for another ${seconds} s`, seconds, TOO_MANY_REQUESTS);
      }
      await options.sleep(waitMs);
      rate = null;
    },
    note(headers) {
      const remaining = Number.parseFloat(headers.get('x-ratelimit-remaining') ?? '');
      const reset = Number.parseFloat(headers.get('x-ratelimit-reset') ?? '');
      if (Number.isFinite(remaining) && Number.isFinite(reset)) {
        rate = { remaining, resetAt: options.now() + reset * 1000 };
      }
    },
  };
}

/** Seconds to wait from Retry-After (seconds, or an HTTP date read against `nowMs`), else X-Ratelimit-Reset on a 429. */
export function retryAfterSeconds(headers: Headers, status: number, nowMs: number): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, Math.ceil((date - nowMs) / 1000));
  }
  if (isRateLimitStatus(status)) {
    const reset = Number.parseFloat(headers.get('x-ratelimit-reset') ?? '');
    if (Number.isFinite(reset) && reset >= 0) return Math.ceil(reset);
  }
  return undefined;
}

/** Seconds from Reddit's RATELIMIT message: "you are doing that too much. try again in 9 minutes." → 540 */
export function parseRatelimitWait(message: string): number | undefined {
  const match = /(\d+)\s*(minute|second|ms|millisecond)/i.exec(message);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2]!.toLowerCase();
  return unit === 'minute' ? amount * 60 : unit === 'second' ? amount : Math.ceil(amount / 1000);
}

/** This server's shared budget has no slot within the wait bound: reported like Reddit's own 429, never an empty result. */
export function budgetUsedUp(perMinute: number, waitMs: number): RedditBudgetExhaustedError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new RedditBudgetExhaustedError(
    `This server's shared Reddit budget (${perMinute} requests a minute) is used up; try again in ${seconds} s`,
    seconds,
  );
}
