import { describe, expect, it } from 'vitest';
import { assertWithinLimits, usageOf } from './monitors.limits.ts';

const limits = { maxPerAccount: 2, maxSubredditsPerAccount: 3 };
const row = (id: string, ...names: string[]) => ({ id, subreddits: JSON.stringify(names.map((name) => `r/${name}`)) });
const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return error as { code: string; extra: Record<string, unknown> };
  }
  return null;
};

describe('the monitor limits of an account', () => {
  it('count a subreddit once across monitors, whatever its case', () => {
    expect(usageOf([row('m1', 'Node', 'deno'), row('m2', 'node')], limits)).toEqual({
      monitors: { used: 2, limit: 2 },
      subreddits: { used: 2, limit: 3 },
    });
  });

  it('refuse a monitor beyond the limit, but not an edit of one the account has', () => {
    const rows = [row('m1', 'a'), row('m2', 'b')];
    expect(refusal(() => assertWithinLimits(rows, limits, { subreddits: ['r/a'] }))).toMatchObject({
      code: 'monitors.limit_reached',
      extra: { limit: 2, used: 2 },
    });
    expect(refusal(() => assertWithinLimits(rows, limits, { monitorId: 'm1', subreddits: ['r/a', 'r/c'] }))).toBeNull();
  });

  it('refuse only growth, so an account over a lowered limit can still shrink or reshuffle its subreddits', () => {
    const over = [row('m1', 'a', 'b', 'c'), row('m2', 'd')];
    expect(refusal(() => assertWithinLimits(over, limits, { monitorId: 'm2', subreddits: ['r/e'] }))).toBeNull();
    expect(refusal(() => assertWithinLimits(over, limits, { monitorId: 'm2', subreddits: [] }))).toBeNull();
    expect(refusal(() => assertWithinLimits(over, limits, { monitorId: 'm2', subreddits: ['r/d', 'r/e'] }))).toMatchObject({
      code: 'monitors.too_many_subreddits',
      extra: { limit: 3, used: 4, would_use: 5 },
    });
  });
});
