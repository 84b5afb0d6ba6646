import { describe, expect, it } from 'vitest';
import type { ListingInput, ListingOutput, RedditItem } from '../../../integrations/reddit/reddit.types.ts';
import { nextMark, readGroup, type Mark } from './poller.reading.ts';

const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 0, 0, second)).toISOString();
const NOW = new Date(Date.UTC(2026, 10, 23, 1));
const post = (n: number, second = n, subreddit = n % 2 ? 'B' : 'a'): RedditItem => ({
  type: 'post',
  id: `t3_${n.toString(36)}`,
  subreddit,
  title: `post ${n}`,
  body: '',
  author: 'x',
  permalink: 'https://www.reddit.com/r/a/comments/x/',
  created_at: at(second),
  nsfw: false,
  score: 1,
});

/** A listing of `items` in the order given (Reddit's position order), 100 a page, paged with `after`. */
function served(items: RedditItem[]) {
  const asked: ListingInput[] = [];
  return {
    asked,
    async listing(input: ListingInput): Promise<ListingOutput> {
      asked.push(input);
      const start = input.after ? items.findIndex((item) => item.id === input.after) + 1 : 0;
      const page = items.slice(start, start + 100);
      return { ok: true, items: page, after: start + 100 < items.length ? page.at(-1)!.id : null, skipped: 0 };
    },
  };
}
/** Posts 1..count, one a second, spread over subreddits a and b, newest first. */
const listing = (count: number) => served(Array.from({ length: count }, (_, i) => post(i + 1)).reverse());
const mark = (second: number, seen: number[] = []): Mark => ({ at: at(second), seen: Object.fromEntries(seen.map((n) => [`t3_${n.toString(36)}`, at(n)])) });
const numbers = (items: RedditItem[]) => items.map((item) => parseInt(item.id.slice(3), 36));

describe('reading one group of subreddits', () => {
  it('a group never read before is read back to when its monitors started watching, and no further', async () => {
    const reddit = listing(250);
    const read = await readGroup(reddit, { names: ['a', 'b'], source: 'posts', marks: new Map(), since: at(120), now: NOW }, 10);
    expect(reddit.asked).toHaveLength(2);
    expect(read).toMatchObject({ complete: true, requests: 2, top: at(250) });
    expect(read.items).toHaveLength(131);
  });

  it('a group never read before whose listing ends before that time has been read completely', async () => {
    const read = await readGroup(listing(30), { names: ['a', 'b'], source: 'posts', marks: new Map(), since: at(0), now: NOW }, 10);
    expect(read).toMatchObject({ complete: true, requests: 1 });
  });

  it('a mark that fell off the end of the listing (Reddit lists about 1,000 things) was not reached', async () => {
    const reddit = served(Array.from({ length: 250 }, (_, i) => post(i + 101)).reverse());
    const read = await readGroup(reddit, { names: ['a', 'b'], source: 'posts', marks: new Map([['a', mark(0)], ['b', mark(0)]]), since: null, now: NOW }, 10);
    expect(read).toMatchObject({ complete: false, requests: 3, oldest: at(101) });
  });

  it('pages back until each mark less the overlap, keeping what is newer than the mark or unseen in the overlap', async () => {
    const reddit = listing(250);
    const marks = new Map([['a', mark(60, [32, 34, 58, 60])], ['b', mark(150, [121, 149])]]);
    const read = await readGroup(reddit, { names: ['a', 'b'], source: 'posts', marks, since: null, now: NOW }, 10);
    expect(reddit.asked.map((a) => a.after)).toEqual([null, 't3_' + (151).toString(36), 't3_' + (51).toString(36)]);
    expect(read.complete).toBe(true);
    const ids = numbers(read.items);
    const range = (from: number, to: number, except: number[]) => Array.from({ length: to - from + 1 }, (_, i) => to - i).filter((n) => n % 2 === from % 2 && !except.includes(n));
    // a (even numbers) from 30 s before its mark, less what it saw; b (odd numbers) likewise from 120 s.
    expect(ids.filter((n) => n % 2 === 0)).toEqual(range(30, 250, [32, 34, 58, 60]));
    expect(ids.filter((n) => n % 2 === 1)).toEqual(range(121, 249, [121, 149]));
  });

  it('a thing listed above the newest one read, with a lower id, is new; a thing read before is not, whatever its id', async () => {
    // Read last time: 5, 6, 7 (mark at 7 s). Now Reddit lists 8, then 4 (created in the 7th second, listed late), then 7, 6, 5.
    const reddit = served([post(8, 8, 'a'), post(4, 7, 'a'), post(7, 7, 'a'), post(6, 6, 'a'), post(5, 5, 'a')]);
    const read = await readGroup(reddit, { names: ['a'], source: 'posts', marks: new Map([['a', mark(7, [5, 6, 7])]]), since: null, now: NOW }, 10);
    expect(numbers(read.items)).toEqual([8, 4]);
    expect(read.requests).toBe(1);
  });

  it('stops at the page cap short of the mark and says it did not reach it', async () => {
    const comments = Array.from({ length: 250 }, (_, i) => ({ ...post(i + 1), type: 'comment' as const, id: `t1_${(i + 1).toString(36)}` }));
    const reddit = served(comments.reverse());
    const read = await readGroup(reddit, { names: ['a', 'b'], source: 'comments', marks: new Map([['a', mark(10)]]), since: null, now: NOW }, 2);
    expect(read).toMatchObject({ complete: false, requests: 2, oldest: at(51), top: at(250) });
    expect(reddit.asked.every((a) => a.source === 'comments' && a.consumer === 'monitors')).toBe(true);
  });

  it('a thing listed again on the next page (newer ones pushed it down) is read once', async () => {
    const first = Array.from({ length: 100 }, (_, i) => post(200 - i, 200 - i, 'a'));
    let calls = 0;
    const reddit = {
      async listing(): Promise<ListingOutput> {
        calls++;
        if (calls === 1) return { ok: true, items: first, after: first.at(-1)!.id, skipped: 0 };
        return { ok: true, items: [post(101, 101, 'a'), post(100, 100, 'a'), post(99, 99, 'a')], after: null, skipped: 0 };
      },
    };
    const read = await readGroup(reddit, { names: ['a'], source: 'posts', marks: new Map([['a', mark(99, [99])]]), since: null, now: NOW }, 10);
    expect(numbers(read.items).filter((n) => n === 101)).toHaveLength(1);
    expect(read.items).toHaveLength(101);
  });

  it('things of another subreddit, of the wrong kind or dated in the future are counted and moved past, never moving the mark', async () => {
    const future = { ...post(900, 0, 'a'), created_at: new Date(NOW.getTime() + 24 * 3600_000).toISOString() };
    const comment = { ...post(901, 50, 'a'), id: 't1_zz' };
    const reddit = served([future, post(902, 49, 'elsewhere'), comment, post(3, 40, 'a')]);
    const read = await readGroup(reddit, { names: ['a'], source: 'posts', marks: new Map([['a', mark(30)]]), since: null, now: NOW }, 10);
    expect(read.ignored).toEqual({ foreign: 1, implausible: 2 });
    expect(numbers(read.items)).toEqual([3]);
    expect(read.top).toBe(at(40));
  });

  it('a one-name path Reddit refuses is reported, not read', async () => {
    const refused = { listing: async (): Promise<ListingOutput> => ({ ok: false, status: 403, reason: 'private' }) };
    const read = await readGroup(refused, { names: ['a'], source: 'posts', marks: new Map(), since: null, now: NOW }, 10);
    expect(read).toMatchObject({ refused: 'private', items: [], requests: 1 });
  });
});

describe('the mark a subreddit keeps', () => {
  it('is the newest time read, with the fullnames read in the 30 s before it, and never goes back', async () => {
    const reddit = served([post(70, 70, 'a'), post(50, 50, 'a'), post(39, 39, 'a'), post(20, 20, 'b')]);
    const read = await readGroup(reddit, { names: ['a', 'b'], source: 'posts', marks: new Map(), since: at(0), now: NOW }, 10);
    expect(nextMark(mark(45, [45]), 'a', read)).toEqual({ at: at(70), seen: { t3_19: at(45), t3_1e: at(50), t3_1y: at(70) } });
    expect(nextMark(mark(90, [88]), 'a', read)).toEqual({ at: at(90), seen: { t3_2g: at(88), t3_1y: at(70) } });
  });

  it('is never ahead of the time of the read, even when Reddit dates a thing a little ahead', () => {
    const ahead = { ...post(5, 0, 'a'), created_at: new Date(NOW.getTime() + 60_000).toISOString() };
    expect(nextMark(undefined, 'a', { top: NOW.toISOString(), read: new Map([[ahead.id, ahead]]) })?.at).toBe(NOW.toISOString());
  });
});
