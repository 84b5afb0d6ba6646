import { describe, expect, it } from 'vitest';
import { LIMITS, cleanText, createdAt, linkUrl, permalinkOf, postId, subredditName, authorName, wholeNumber } from './reddit.content.ts';
import { parseListing } from './reddit.mapping.ts';

const listing = (...children: unknown[]) => ({ kind: 'Listing', data: { after: null, children } });
const post = (data: Record<string, unknown>) => ({
  kind: 't3',
  data: {
    name: 't3_abc1',
    id: 'abc1',
    subreddit: 'typescript',
    title: 'A title',
    selftext: 'A body',
    author: 'someone',
    url: 'https://example.com/x',
    permalink: '/r/typescript/comments/abc1/a_title/',
    created_utc: 1_700_000_000,
    score: 3,
    num_comments: 1,
    over_18: false,
    ...data,
  },
});
const only = (data: Record<string, unknown>) => {
  const page = parseListing(listing(post(data)));
  expect(page.skipped).toEqual([]);
  return page.posts[0]!;
};

describe('Reddit text is cleaned and capped', () => {
  it('drops control characters that are not whitespace, keeps tabs, line breaks and bidirectional marks', () => {
    expect(cleanText('a\u0000b\u0007c\u001bd\u007fe\u0085f\u009fg')).toBe('abcdefg');
    expect(cleanText('line\none\r\n\ttab')).toBe('line\none\r\n\ttab');
    expect(cleanText('abc\u202Edef\u2066x\u2069')).toBe('abc\u202Edef\u2066x\u2069');
  });

  it('replaces a lone surrogate with U+FFFD and keeps a whole emoji', () => {
    expect(cleanText('a\uD800b 😀')).toBe('a\uFFFDb 😀');
  });

  it('cuts a 2,000,000-character body to 40,000 and says the post was truncated', () => {
    const result = only({ selftext: 'x'.repeat(2_000_000) });
    expect(result.body).toHaveLength(LIMITS.body);
    expect(LIMITS.body).toBe(40_000);
    expect(result.truncated).toBe(true);
  });

  it('cuts a title to 300 characters without splitting an emoji', () => {
    const result = only({ title: `${'t'.repeat(299)}😀😀` });
    expect([...result.title]).toHaveLength(LIMITS.title);
    expect(result.title.endsWith('😀')).toBe(true);
    expect(result.truncated).toBe(true);
  });

  it('does not flag a post within the limits', () => {
    expect(only({}).truncated).toBe(false);
  });
});

describe('links are absolute http(s) and permalinks are on www.reddit.com', () => {
  it('keeps an absolute http or https link', () => {
    expect(linkUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(linkUrl('http://example.com/')).toBe('http://example.com/');
  });

  it('resolves a relative link (a crosspost) against https://www.reddit.com', () => {
    expect(linkUrl('/r/RDDT/comments/1tp4wsi/title/')).toBe('https://www.reddit.com/r/RDDT/comments/1tp4wsi/title/');
    const crosspost = only({ url: '/r/RDDT/comments/1tp4wsi/title/', is_self: false, crosspost_parent: 't3_1tp4wsi' });
    expect(crosspost.url).toBe('https://www.reddit.com/r/RDDT/comments/1tp4wsi/title/');
  });

  it('refuses javascript:, data:, protocol-relative, over-long and garbage links', () => {
    for (const bad of ['javascript:alert(3)', ' JavaScript:alert(3)', 'data:text/html,<b>x</b>', '//evil.example/x', '/\\evil.example/x', 'not a url', 'r/x', '', 42, null]) {
      expect(linkUrl(bad)).toBeNull();
    }
    expect(linkUrl(`https://example.com/${'a'.repeat(LIMITS.url)}`)).toBeNull();
  });

  it('falls back to the permalink when the link is refused', () => {
    const result = only({ url: 'javascript:alert(3)' });
    expect(result.url).toBe('https://www.reddit.com/r/typescript/comments/abc1/a_title/');
  });

  it('joins a relative permalink with a slash and keeps an absolute www.reddit.com one', () => {
    expect(permalinkOf('/r/typescript/comments/abc1/t/', 'typescript', 'abc1')).toBe('https://www.reddit.com/r/typescript/comments/abc1/t/');
    expect(permalinkOf('https://www.reddit.com/r/x/comments/abc1/', 'x', 'abc1')).toBe('https://www.reddit.com/r/x/comments/abc1/');
  });

  it('keeps the letters of a Unicode slug as Reddit sent them, in permalinks and links alike', () => {
    expect(permalinkOf('/r/de/comments/abc1/über_die_straße/', 'de', 'abc1')).toBe('https://www.reddit.com/r/de/comments/abc1/über_die_straße/');
    expect(permalinkOf('https://www.reddit.com/r/korea/comments/abc1/이것은_웹_페이지입니다/', 'korea', 'abc1')).toBe(
      'https://www.reddit.com/r/korea/comments/abc1/이것은_웹_페이지입니다/',
    );
    expect(linkUrl('https://de.wikipedia.org/wiki/Straße?q=ä#Geschichte')).toBe('https://de.wikipedia.org/wiki/Straße?q=ä#Geschichte');
    // What Reddit sent already percent-encoded stays so.
    expect(permalinkOf('/r/de/comments/abc1/%C3%BCber/', 'de', 'abc1')).toBe('https://www.reddit.com/r/de/comments/abc1/%C3%BCber/');
    expect(only({ permalink: '/r/de/comments/abc1/grüße_aus_köln/' }).permalink).toBe('https://www.reddit.com/r/de/comments/abc1/grüße_aus_köln/');
  });

  it('percent-encodes what could hide in a link: spaces, controls, bidirectional overrides, and takes the parser\'s form of an odd one', () => {
    expect(permalinkOf('/r/de/comments/abc1/a\u202Eb/', 'de', 'abc1')).toBe('https://www.reddit.com/r/de/comments/abc1/a%E2%80%AEb/');
    expect(permalinkOf('/r/de/comments/abc1/ä\u00A0b/', 'de', 'abc1')).toBe('https://www.reddit.com/r/de/comments/abc1/%C3%A4%C2%A0b/');
    expect(linkUrl('https://example.com/a b/ü')).toBe('https://example.com/a%20b/%C3%BC');
    expect(linkUrl('HTTPS://example.com/ü')).toBe('https://example.com/%C3%BC');
    expect(linkUrl('https://bücher.example/ü')).toBe('https://xn--bcher-kva.example/%C3%BC');
  });

  it('rebuilds a permalink that is not a /path on www.reddit.com from the subreddit and id', () => {
    const rebuilt = 'https://www.reddit.com/r/typescript/comments/abc1/';
    for (const bad of ['javascript:alert(1)', 'https://evil.example/r/x', 'http://www.reddit.com/r/x', '//evil.example/x', '/\\evil.example', 'r/x/comments/abc1', '', undefined]) {
      expect(permalinkOf(bad, 'typescript', 'abc1')).toBe(rebuilt);
    }
    expect(only({ permalink: 'javascript:alert(1)' }).permalink).toBe(rebuilt);
  });
});

describe('ids, names, dates and counts', () => {
  it('takes the t3_ name, else the id, and refuses anything else', () => {
    expect(postId({ name: 't3_abc1' })).toBe('abc1');
    expect(postId({ id: 'abc1' })).toBe('abc1');
    expect(postId({ name: 't3_"%' })).toBeNull();
    expect(postId({})).toBeNull();
  });

  it('accepts subreddit names by Reddit rules (and u_ profiles) and nothing else', () => {
    expect(subredditName('typescript')).toBe('typescript');
    expect(subredditName('u_a_twenty_char_name_x')).toBe('u_a_twenty_char_name_x');
    expect(subredditName('bad name')).toBeNull();
    expect(subredditName('x'.repeat(LIMITS.subreddit + 1))).toBeNull();
  });

  it('keeps an author only in Reddit username form', () => {
    expect(authorName('some-one_1')).toBe('some-one_1');
    expect(authorName('[deleted]')).toBe('[deleted]');
    expect(authorName('x'.repeat(LIMITS.author + 1))).toBe('');
    expect(authorName('evil\u202Ename')).toBe('');
  });

  it('reads created_utc only when it is a time a Date can show', () => {
    expect(createdAt(1_700_000_000)).toBe('2023-11-14T22:13:20.000Z');
    for (const bad of [1e20, -1, Number.NaN, '1700000000', undefined]) expect(createdAt(bad)).toBeNull();
  });

  it('turns counts into whole numbers', () => {
    expect(wholeNumber(3.7)).toBe(3);
    expect(wholeNumber(1e300)).toBe(Number.MAX_SAFE_INTEGER);
    expect(wholeNumber('5')).toBe(0);
  });
});

describe('a listing skips and counts the children it cannot read', () => {
  it('skips a post with created_utc 1e20, a child whose data is not an object and a post without an id', () => {
    const page = parseListing(
      listing(post({}), post({ name: 't3_bad1', id: 'bad1', created_utc: 1e20 }), { kind: 't3', data: 'oops' }, 'junk', post({ name: undefined, id: undefined })),
    );
    expect(page.posts.map((p) => p.id)).toEqual(['t3_abc1']);
    expect(page.skipped).toHaveLength(4);
    expect(page.skipped[0]).toEqual({ id: 't3_bad1', problem: expect.stringContaining('created_utc') });
  });

  it('ignores children of other kinds without counting them', () => {
    expect(parseListing(listing({ kind: 't1', data: {} })).skipped).toEqual([]);
  });
});
