import { describe, expect, it } from 'vitest';
import { RedditUnavailableError } from './reddit.errors.ts';
import { budgetUsedUp, createRateLimitGate, isRateLimited, isRetryableStatus, parseRatelimitWait, retryAfterSeconds, withRetries } from './reddit.ratelimit.ts';
import type { Attempt } from './reddit.types.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const answer = (status: number, headers: Record<string, string> = {}): Attempt => ({ ok: true, status, headers: new Headers(headers), text: '' });

describe('reddit rate limits', () => {
  it('retries 429 and 5xx only', () => {
    expect([429, 500, 503].map(isRetryableStatus)).toEqual([true, true, true]);
    expect([200, 401, 403, 404].map(isRetryableStatus)).toEqual([false, false, false, false]);
  });

  it('reads Retry-After as seconds or as a date against the given clock, else X-Ratelimit-Reset on a 429', () => {
    expect(retryAfterSeconds(new Headers({ 'retry-after': '7.2' }), 503, NOW)).toBe(8);
    const inNinety = new Date(NOW + 90_000).toUTCString();
    expect(retryAfterSeconds(new Headers({ 'retry-after': inNinety }), 429, NOW)).toBe(90);
    expect(retryAfterSeconds(new Headers({ 'retry-after': inNinety }), 429, NOW + 200_000)).toBe(0);
    expect(retryAfterSeconds(new Headers({ 'x-ratelimit-reset': '12' }), 429, NOW)).toBe(12);
    expect(retryAfterSeconds(new Headers({ 'x-ratelimit-reset': '12' }), 503, NOW)).toBeUndefined();
  });

  it("reads the wait out of Reddit's RATELIMIT message", () => {
    expect(parseRatelimitWait('you are doing that too much. try again in 9 minutes.')).toBe(540);
    expect(parseRatelimitWait('try again in 30 seconds')).toBe(30);
    expect(parseRatelimitWait('try again in 1500 ms')).toBe(2);
    expect(parseRatelimitWait('slow down')).toBeUndefined();
  });

  it('waits by Retry-After on a 429, and gives up with the hint when the wait is too long', async () => {
    const waits: number[] = [];
    const options = { maxRetries: 3, timeoutMs: 1000, now: () => NOW, sleep: async (ms: number) => void waits.push(ms) };
    const answers = [answer(429, { 'retry-after': '2' }), answer(200)];
    expect((await withRetries('Reddit', async () => answers.shift()!, options)).status).toBe(200);
    expect(waits).toEqual([2000]);
    const tooLong = withRetries('Reddit', async () => answer(429, { 'retry-after': '31' }), options);
    await expect(tooLong).rejects.toMatchObject({ message: 'Reddit answered HTTP 429 and asked to wait 31 s', retryAfterSeconds: 31, upstreamStatus: 429 });
  });

  it('holds calls once X-Ratelimit-Remaining is used up, by the pinned clock', async () => {
    let now = NOW;
    const waits: number[] = [];
    const gate = createRateLimitGate({ now: () => now, sleep: async (ms) => void waits.push(ms) });
    gate.note(new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' }));
    await gate.beforeCall();
    expect(waits).toEqual([5000]);
    gate.note(new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '45' }));
    await expect(gate.beforeCall()).rejects.toMatchObject({ retryAfterSeconds: 45, upstreamStatus: 429 });
    now += 45_000;
    await gate.beforeCall();
    expect(waits).toEqual([5000]);
  });

  it('answers a used-up shared budget like a 429 with at least one second to wait', () => {
    const error = budgetUsedUp(100, 200);
    expect(error).toBeInstanceOf(RedditUnavailableError);
    expect(error).toMatchObject({ retryAfterSeconds: 1, upstreamStatus: 429 });
    expect(error.message).toBe("This server's shared Reddit budget (100 requests a minute) is used up; try again in 1 s");
  });

  it('calls a failure a rate limit when it carries a 429, the shared budget included, and nothing else', () => {
    expect(isRateLimited(new RedditUnavailableError('slow down', 9, 429))).toBe(true);
    expect(isRateLimited(budgetUsedUp(100, 200))).toBe(true);
    expect(isRateLimited(new RedditUnavailableError('down', undefined, 503))).toBe(false);
    expect(isRateLimited(new Error('429'))).toBe(false);
  });
});
