import { describe, expect, it } from 'vitest';
import type { RedditItem } from '../../../integrations/reddit/reddit.types.ts';
import { createTitleBook, postOf } from './stream.titles.ts';

const post = (id36: string, title: string): RedditItem =>
  ({ type: 'post', id: `t3_${id36}`, subreddit: 'node', title, body: '', author: 'a', permalink: `https://www.reddit.com/r/node/comments/${id36}/slug/`, created_at: '2026-11-29T00:00:00Z', score: 1, nsfw: false });
const comment = (id36: string, post36: string): RedditItem =>
  ({ type: 'comment', id: `t1_${id36}`, subreddit: 'node', title: '', body: 'hi', author: 'b', permalink: `https://www.reddit.com/r/node/comments/${post36}/slug/${id36}/`, created_at: '2026-11-29T00:00:00Z', score: 1, nsfw: false });

describe("the stream's book of post titles", () => {
  it("gives a comment its post's title from its page's address, and names the posts it does not know, each once", () => {
    expect(postOf(comment('c1', 'p1'))).toBe('t3_p1');
    const book = createTitleBook();
    book.remember([post('p1', 'Kysely 1.0'), comment('c0', 'p1')]);
    const [known, unknown, again] = book.titled([comment('c1', 'p1'), comment('c2', 'p2'), comment('c3', 'p2')]);
    expect(known!.title).toBe('Kysely 1.0');
    expect([unknown!.title, again!.title]).toEqual(['', '']);
    expect(book.missing([known!, unknown!, again!])).toEqual(['t3_p2']);
  });

  it('keeps the newest titles only, letting the oldest go first', () => {
    const book = createTitleBook(2);
    book.remember([post('p1', 'one'), post('p2', 'two'), post('p3', 'three')]);
    expect(book.titled([comment('c1', 'p1'), comment('c3', 'p3')]).map((c) => c.title)).toEqual(['', 'three']);
  });
});
