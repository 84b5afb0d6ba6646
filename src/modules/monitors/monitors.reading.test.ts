import { describe, expect, it } from 'vitest';
import type { ListingInput, ListingOutput, RedditItem } from '../../integrations/reddit/reddit.types.ts';
import { compareIds, readGroup } from './monitors.reading.ts';

/** A listing of `count` posts, ids 1..count in base 36 spread over subreddits a and b, served newest first, 100 a page. */
function listing(count: number) {
  const items: RedditItem[] = Array.from({ length: count }, (_, i) => ({
    type: 'post' as const,
    id: `t3_${(i + 1).toString(36)}`,
    subreddit: i % 2 ? 'B' : 'a',
    title: `post ${i + 1}`,
    body: '',
    author: 'x',
    permalink: 'https://www.reddit.com/r/a/comments/x/',
    created_at: new Date(Date.UTC(2026, 10, 23, 0, 0, i + 1)).toISOString(),
    nsfw: false,
    score: 1,
  })).reverse();
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
const mark = (n: number) => ({ id: `t3_${n.toString(36)}`, at: new Date(Date.UTC(2026, 10, 23, 0, 0, n)).toISOString() });

describe('reading one group of subreddits', () => {
  it('orders base-36 ids by their number, not their spelling', () => {
    expect(compareIds('t3_zz', 't3_100')).toBe(-1);
    expect(compareIds('t1_abc', 't1_abc')).toBe(0);
    expect(compareIds('t3_b', 't3_a')).toBe(1);
  });

  it('a group never read before is read back to when its monitors started watching, and no further', async () => {
    const reddit = listing(250);
    const read = await readGroup(reddit, { names: ['a', 'b'], source: 'posts', marks: new Map(), since: mark(120).at }, 10);
    expect(reddit.asked).toHaveLength(2);
    expect(read).toMatchObject({ complete: true, requests: 2, top: mark(250) });
    expect(read.items).toHaveLength(200);
  });

  it('a group never read before whose listing ends before that time has been read completely', async () => {
    const read = await readGroup(listing(30), { names: ['a', 'b'], source: 'posts', marks: new Map(), since: mark(0).at }, 10);
    expect(read).toMatchObject({ complete: true, requests: 1 });
  });

  it('a mark that fell off the end of the listing (Reddit lists about 1,000 things) was not reached', async () => {
    const reddit = listing(250);
    const read = await readGroup(reddit, { names: ['a', 'b'], source: 'posts', marks: new Map([['a', mark(0)], ['b', mark(0)]]), since: null }, 10);
    expect(read).toMatchObject({ complete: false, requests: 3, oldest: mark(1) });
  });

  it('pages back with `after` until the oldest mark, keeping only what is newer than each subreddit’s own mark', async () => {
    const reddit = listing(250);
    const marks = new Map([['a', mark(41)], ['b', mark(120)]]);
    const read = await readGroup(reddit, { names: ['a', 'b'], source: 'posts', marks, since: null }, 10);
    expect(reddit.asked.map((a) => a.after)).toEqual([null, 't3_' + (151).toString(36), 't3_' + (51).toString(36)]);
    expect(read.complete).toBe(true);
    const ids = read.items.map((item) => parseInt(item.id.slice(3), 36));
    // a (odd numbers) after 41, b (even numbers) after 120.
    expect(ids.filter((n) => n % 2 === 1).at(-1)).toBe(43);
    expect(ids.filter((n) => n % 2 === 0).at(-1)).toBe(122);
  });

  it('stops at the page cap short of the mark and says it did not reach it', async () => {
    const reddit = listing(250);
    const read = await readGroup(reddit, { names: ['a', 'b'], source: 'comments', marks: new Map([['a', mark(10)]]), since: null }, 2);
    expect(read).toMatchObject({ complete: false, requests: 2, oldest: mark(51), top: mark(250) });
    expect(reddit.asked.every((a) => a.source === 'comments' && a.consumer === 'monitors')).toBe(true);
  });

  it('a one-name path Reddit refuses is reported, not read', async () => {
    const refused = { listing: async (): Promise<ListingOutput> => ({ ok: false, status: 403, reason: 'private' }) };
    const read = await readGroup(refused, { names: ['a'], source: 'posts', marks: new Map(), since: null }, 10);
    expect(read).toMatchObject({ refused: 'private', items: [], requests: 1 });
  });
});
