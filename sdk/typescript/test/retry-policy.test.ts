import { describe, expect, it } from 'vitest';
import { SubpilotConnectionError, SubpilotError, type ErrorCode } from '../src/errors.ts';
import { parseRetryAfter, retryDelay, type CallKind } from '../src/retry.ts';

const policy = { maxRetries: 3, maxRetryWaitMs: 60_000, random: () => 1 };
const keyedPost: CallKind = { keyed: true, idempotent: false };
const plainPost: CallKind = { keyed: false, idempotent: false };
const get: CallKind = { keyed: false, idempotent: true };

function answer(status: number, code: ErrorCode | null, retryAfterMs: number | null = null) {
  const problem = code === null ? null : { type: `urn:subpilot:problem:${code}`, title: 't', status, detail: 'd', code };
  const fields = { creditsRequired: null, creditsBalance: null, idempotencyKey: null, attempts: 1 };
  return new SubpilotError({ status, problem: problem as SubpilotError['problem'], code: code ?? 'unexpected_response', detail: 'd', retryAfterMs, ...fields });
}
const lost = new SubpilotConnectionError('cut', { cause: null, idempotencyKey: null, attempts: 1 });

describe('the retry policy of the TypeScript SDK', () => {
  it('reads Retry-After as seconds or as an HTTP date, and nothing else', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('retries a 429 or a 503 unavailable of any call after the wait it asks', () => {
    for (const call of [plainPost, keyedPost, get]) {
      expect(retryDelay(answer(429, 'rate_limit.exceeded', 2000), 1, call, policy)).toBe(2000);
      expect(retryDelay(answer(503, 'unavailable', 5000), 1, call, policy)).toBe(5000);
    }
  });

  it('does not retry a 429 for bad keys, a refusal, or a final outcome bound to the key', () => {
    expect(retryDelay(answer(429, 'auth.too_many_failures', 1000), 1, get, policy)).toBeNull();
    expect(retryDelay(answer(402, 'credits.insufficient'), 1, keyedPost, policy)).toBeNull();
    expect(retryDelay(answer(422, 'request.invalid'), 1, keyedPost, policy)).toBeNull();
    expect(retryDelay(answer(503, 'scrape.reddit_unavailable', 1000), 1, keyedPost, policy)).toBeNull();
    expect(retryDelay(answer(502, 'generate.llm_unavailable'), 1, keyedPost, policy)).toBeNull();
    expect(retryDelay(answer(504, 'publish.outcome_unknown'), 1, keyedPost, policy)).toBeNull();
  });

  it('sends again after a lost answer or an outcome not known only a call that cannot take effect twice', () => {
    for (const failure of [lost, answer(503, 'answer_lost'), answer(503, 'outcome_unknown'), answer(500, 'answer_lost'), answer(503, null)]) {
      expect(retryDelay(failure, 1, keyedPost, policy)).toBe(500);
      expect(retryDelay(failure, 1, get, policy)).toBe(500);
      expect(retryDelay(failure, 1, plainPost, policy)).toBeNull();
    }
  });

  it('waits for the first request with the same key to finish, for keyed calls only', () => {
    for (const code of ['idempotency.in_progress', 'generate.in_progress', 'publish.in_progress']) {
      expect(retryDelay(answer(409, code, 1000), 1, keyedPost, policy)).toBe(1000);
      expect(retryDelay(answer(409, code, 1000), 1, plainPost, policy)).toBeNull();
    }
  });

  it('backs off from half a second, doubling, with jitter, up to the longest wait', () => {
    expect([1, 2, 3].map((attempt) => retryDelay(lost, attempt, get, policy))).toEqual([500, 1000, 2000]);
    expect(retryDelay(lost, 1, get, { ...policy, random: () => 0 })).toBe(250);
    expect(retryDelay(lost, 3, get, { ...policy, maxRetries: 10, maxRetryWaitMs: 1500 })).toBe(1500);
  });

  it('gives up after maxRetries, and at once when the wait asked is longer than the longest allowed', () => {
    expect(retryDelay(answer(429, 'rate_limit.exceeded', 1000), 4, get, policy)).toBeNull();
    expect(retryDelay(answer(429, 'rate_limit.exceeded', 61_000), 1, get, policy)).toBeNull();
    expect(retryDelay(answer(429, 'rate_limit.exceeded', 1000), 1, get, { ...policy, maxRetries: 0 })).toBeNull();
  });
});
