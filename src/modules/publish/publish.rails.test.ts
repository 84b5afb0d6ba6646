import { describe, expect, it } from 'vitest';
import { paceBlock, refusalOf, type Attempt, type Earlier } from './publish.rails.ts';

const rails = { paceSubredditMinutes: 10, pacePerSubreddit: 2, pacePerHour: 3, duplicateHours: 24, repliesPerThread: 1 };
const at = '2026-11-02T11:00:00.000Z';
const attempt: Attempt = { accountId: 'acc_1', at, kind: 'comment', textHash: 'h', subreddit: 'r/node', thread: 't3_a', allowDuplicate: false, allowSecondReply: false };
const earlier = (id: string, minutesAgo: number): Earlier => ({ id, created_at: new Date(Date.parse(at) - minutesAgo * 60_000).toISOString() });

describe('the rails decide from what they found', () => {
  it('a pace has room below its limit; at it, the oldest that must leave names the retry, a window after it was made', () => {
    expect(paceBlock([earlier('pub_a', 5)], 2, 10)).toBeNull();
    expect(paceBlock([earlier('pub_a', 8), earlier('pub_b', 5)], 2, 10)).toEqual({ publicationId: 'pub_a', retryAt: '2026-11-02T11:02:00.000Z' });
    // More than the limit (it was lowered since): enough of them must leave to make room for one.
    expect(paceBlock([earlier('pub_a', 9), earlier('pub_b', 8), earlier('pub_c', 5)], 2, 10)?.publicationId).toBe('pub_b');
  });

  it('the same text comes first, then the thread, then the paces: a change of request before a wait', () => {
    const all = { sameText: earlier('pub_t', 60), inThread: [earlier('pub_r', 30)], inHour: [earlier('pub_1', 50), earlier('pub_2', 40), earlier('pub_3', 30)] };
    expect(refusalOf(rails, attempt, all)?.code).toBe('publish.duplicate');
    expect(refusalOf(rails, attempt, { ...all, sameText: undefined })?.code).toBe('publish.second_reply');
    expect(refusalOf(rails, attempt, { inHour: all.inHour })?.code).toBe('publish.hourly_pace');
    // An operator who allows two replies per thread: the second passes, a third is refused naming the newest.
    const two = { ...rails, repliesPerThread: 2 };
    expect(refusalOf(two, attempt, { inThread: [earlier('pub_r', 30)] })).toBeNull();
    expect(refusalOf(two, attempt, { inThread: [earlier('pub_r', 30), earlier('pub_s', 20)] })?.extra).toMatchObject({ publication_id: 'pub_s' });
    expect(refusalOf(rails, attempt, { inHour: all.inHour.slice(1), inSubreddit: [] })).toBeNull();
  });

  it('when both paces refuse, the one that lets it through later is named, so its retry is not refused by the other', () => {
    const inHour = [earlier('pub_1', 50), earlier('pub_2', 9), earlier('pub_3', 8)];
    const inSubreddit = [earlier('pub_2', 9), earlier('pub_3', 8)];
    const hourly = refusalOf(rails, attempt, { inHour, inSubreddit })!;
    expect(hourly).toMatchObject({ code: 'publish.hourly_pace', extra: { publication_id: 'pub_1', retry_at: '2026-11-02T11:10:00.000Z' } });
    const bySubreddit = refusalOf(rails, attempt, { inHour: inHour.slice(0, 2), inSubreddit })!;
    expect(bySubreddit).toMatchObject({ code: 'publish.subreddit_pace', extra: { publication_id: 'pub_2', retry_at: '2026-11-02T11:01:00.000Z' } });
    expect(bySubreddit.headers).toEqual({ 'retry-after': '60' });
  });
});
