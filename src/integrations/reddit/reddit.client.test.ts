import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeReddit, type FakePost, type FakeReddit } from '../../../test/support/fake-reddit.ts';
import { createRedditClient, type RedditClientOptions } from './reddit.client.ts';
import { RedditBlockedError, RedditUnavailableError } from './reddit.errors.ts';
import { buildQueries, formatKeyword } from './reddit.query.ts';
import type { SearchInput } from './reddit.types.ts';

const USER_AGENT = 'node:subpilot-test:0.1.0 (by /u/subpilot)';
const T0 = 1_700_000_000;

let fake: FakeReddit;
let sleeps: number[];
let events: string[];

beforeEach(async () => {
  fake = await startFakeReddit();
  sleeps = [];
  events = [];
});
afterEach(async () => {
  await fake.close();
});

function client(overrides: Partial<RedditClientOptions> = {}) {
  return createRedditClient({
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    userAgent: USER_AGENT,
    apiUrl: fake.url,
    authUrl: fake.url,
    sleep: async (ms) => {
      sleeps.push(ms);
      events.push(`sleep ${ms} after ${fake.requests.length} requests`);
    },
    ...overrides,
  });
}

const input = (overrides: Partial<SearchInput> = {}): SearchInput => ({
  subreddits: ['typescript'],
  keywords: ['vitest'],
  sort: 'new',
  time: 'all',
  limit: 100,
  includeNsfw: false,
  ...overrides,
});

function addPosts(subreddit: string, count: number, extra: Partial<FakePost> = {}) {
  for (let i = 0; i < count; i++) {
    fake.posts.push({ id: `${subreddit}${i}`, subreddit, title: `Post ${i} about vitest`, created_utc: T0 + i, ...extra });
  }
}

const searches = () => fake.requests.filter((r) => r.path.endsWith('/search'));
const secretsIn = (error: unknown) => {
  const text = `${(error as Error).message} ${JSON.stringify(error)}`;
  return text.includes(fake.clientSecret) || text.includes('fake-token-');
};

describe('the Reddit client', () => {
  it('fetches an app-only token once and reuses it across searches', async () => {
    addPosts('typescript', 3);
    const reddit = client();
    await reddit.search(input());
    await reddit.search(input());
    expect(fake.tokenRequests).toBe(1);
    const tokenCall = fake.requests.find((r) => r.path === '/api/v1/access_token')!;
    expect(tokenCall.method).toBe('POST');
    expect(tokenCall.headers['user-agent']).toBe(USER_AGENT);
    expect(searches().map((r) => r.headers.authorization)).toEqual(['bearer fake-token-1', 'bearer fake-token-1']);
  });

  it('shares one token request between concurrent searches', async () => {
    addPosts('typescript', 3);
    const reddit = client();
    await Promise.all([reddit.search(input()), reddit.search(input()), reddit.search(input())]);
    expect(fake.tokenRequests).toBe(1);
  });

  it('fetches a new token and retries once when the API answers 401', async () => {
    addPosts('typescript', 2);
    const reddit = client();
    await reddit.search(input());
    fake.revokeTokens();
    const { posts } = await reddit.search(input());
    expect(posts).toHaveLength(2);
    expect(fake.tokenRequests).toBe(2);
  });

  it('sends restrict_sr=1, the User-Agent and the search parameters', async () => {
    addPosts('typescript', 1);
    addPosts('node', 1);
    await client().search(input({ subreddits: ['typescript', 'node'], sort: 'top', time: 'week', includeNsfw: true }));
    const [call] = searches();
    expect(call!.path).toBe('/r/typescript+node/search');
    expect(call!.headers['user-agent']).toBe(USER_AGENT);
    expect(call!.query).toMatchObject({ restrict_sr: '1', sort: 'top', t: 'week', raw_json: '1', include_over_18: 'on', q: 'vitest' });
  });

  it('maps listing children to posts with absolute permalinks and ISO dates', async () => {
    fake.posts.push({ id: 'abc', subreddit: 'TypeScript', title: 'vitest tips', selftext: 'body', author: 'alice', created_utc: T0, score: 5, num_comments: 2, over_18: true });
    fake.posts.push({ id: 'def', subreddit: 'TypeScript', title: 'vitest link', created_utc: T0, url: 'https://example.com/x' });
    const { posts } = await client().search(input({ includeNsfw: true }));
    expect(posts.find((p) => p.id === 't3_abc')).toEqual({
      id: 't3_abc', subreddit: 'TypeScript', title: 'vitest tips', body: 'body', author: 'alice',
      url: 'https://www.reddit.com/r/TypeScript/comments/abc/vitest_tips/',
      permalink: 'https://www.reddit.com/r/TypeScript/comments/abc/vitest_tips/',
      created_at: new Date(T0 * 1000).toISOString(), score: 5, num_comments: 2, nsfw: true, truncated: false,
    });
    expect(posts.find((p) => p.id === 't3_def')).toMatchObject({ body: '', url: 'https://example.com/x', nsfw: false });
  });

  it('asks Reddit to leave out NSFW posts when they are not wanted', async () => {
    addPosts('typescript', 2, { over_18: true });
    const { posts } = await client().search(input({ includeNsfw: false }));
    expect(searches()[0]!.query.include_over_18).toBe('off');
    expect(posts).toEqual([]);
  });

  it('quotes multi-word keywords and joins keywords with OR', async () => {
    fake.posts.push({ id: 'a', subreddit: 'typescript', title: 'Type narrowing explained', created_utc: T0 });
    fake.posts.push({ id: 'b', subreddit: 'typescript', title: 'narrowing types', created_utc: T0 });
    fake.posts.push({ id: 'c', subreddit: 'typescript', title: 'about generics', created_utc: T0 });
    const { posts } = await client().search(input({ keywords: ['type narrowing', 'generics', 'say "hi"'] }));
    expect(searches()[0]!.query.q).toBe('"type narrowing" OR generics OR "say hi"');
    expect(posts.map((p) => p.id).sort()).toEqual(['t3_a', 't3_c']);
  });

  it('batches 20 keywords of 100 characters into several queries of at most 512 characters', async () => {
    const keywords = Array.from({ length: 20 }, (_, i) => `k${String(i).padStart(2, '0')}`.padEnd(100, 'x'));
    fake.posts.push({ id: 'hit', subreddit: 'typescript', title: keywords[19]!, created_utc: T0 });
    const { posts } = await client().search(input({ keywords }));
    const queries = searches().map((r) => r.query.q!);
    expect(queries.length).toBe(5); // four 100-char terms + separators fit in 512
    for (const q of queries) expect(q.length).toBeLessThanOrEqual(512);
    expect(queries.join(' OR ').split(' OR ').sort()).toEqual([...keywords].sort());
    expect(posts.map((p) => p.id)).toEqual(['t3_hit']);
  });

  it('builds each query within 512 characters even for an overlong keyword', () => {
    expect(buildQueries(['a'.repeat(600)])[0]!.length).toBe(512);
    expect(formatKeyword('  two   words ')).toBe('"two words"');
    expect(formatKeyword('"""')).toBeNull();
    expect(buildQueries(['a', 'b', 'c'])).toEqual(['a OR b OR c']);
  });

  it('follows after until the limit is collected', async () => {
    addPosts('typescript', 250);
    const { posts } = await client().search(input({ limit: 150 }));
    expect(posts).toHaveLength(150);
    expect(new Set(posts.map((p) => p.id)).size).toBe(150);
    expect(searches().map((r) => [r.query.limit, r.query.after])).toEqual([
      ['100', undefined],
      ['50', 't3_typescript150'],
    ]);
  });

  it('stops paging when Reddit returns no after', async () => {
    addPosts('typescript', 130);
    const { posts } = await client().search(input({ limit: 500 }));
    expect(posts).toHaveLength(130);
    expect(searches()).toHaveLength(2);
  });

  it('de-duplicates posts found by several keyword batches', async () => {
    const keywords = ['vitest'.padEnd(510, 'x'), 'post']; // too long to share one query
    fake.posts.push({ id: 'both', subreddit: 'typescript', title: `${keywords[0]} post`, created_utc: T0 });
    const { posts } = await client().search(input({ keywords }));
    expect(searches()).toHaveLength(2);
    expect(posts.map((p) => p.id)).toEqual(['t3_both']);
  });

  // Reddit's router drops unknown names from a combined path and hides unviewable subreddits' posts, so a
  // combined search that succeeds says nothing about each name: the subreddit directory has to.
  it('cannot tell from a combined search that some subreddits are unavailable, as Reddit drops them silently', async () => {
    addPosts('typescript', 2);
    addPosts('node', 1);
    fake.subreddits.set('secret', 'private');
    fake.subreddits.set('gone', 'banned');
    fake.subreddits.set('edgy', 'quarantined');
    const { posts, unavailable } = await client().search(
      input({ subreddits: ['typescript', 'doesnotexist', 'secret', 'gone', 'edgy', 'node'] }),
    );
    expect(posts).toHaveLength(3);
    expect(unavailable).toEqual([]);
    expect(searches().map((r) => r.path)).toEqual(['/r/typescript+doesnotexist+secret+gone+edgy+node/search']);
  });

  it('returns only unavailable entries when no subreddit can be searched', async () => {
    fake.subreddits.set('secret', 'private');
    const { posts, unavailable } = await client().search(input({ subreddits: ['secret'], keywords: ['a'.repeat(400), 'b'] }));
    expect(posts).toEqual([]);
    expect(unavailable).toEqual([{ subreddit: 'secret', reason: 'private' }]);
    expect(searches()).toHaveLength(1); // the second keyword batch is not tried on an unavailable subreddit
  });

  it('retries a 503 twice and then succeeds', async () => {
    addPosts('typescript', 2);
    fake.failNext(503, 2);
    const { posts } = await client().search(input());
    expect(posts).toHaveLength(2);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('throws RedditUnavailableError with the upstream status when Reddit keeps answering 503', async () => {
    addPosts('typescript', 2);
    fake.failAlways(503);
    const error = await client().search(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedditUnavailableError);
    expect(error).toMatchObject({ upstreamStatus: 503 });
    expect(sleeps).toEqual([500, 1000, 2000]);
    expect(searches()).toHaveLength(4);
    expect(secretsIn(error)).toBe(false);
  });

  it('retries a 429 after the seconds in Retry-After', async () => {
    addPosts('typescript', 2);
    fake.failNext(429, 1, { 'retry-after': '3' });
    const { posts } = await client().search(input());
    expect(posts).toHaveLength(2);
    expect(sleeps).toEqual([3000]);
  });

  it('gives up at once on a 429 that asks to wait more than 30 seconds', async () => {
    fake.failNext(429, 1, { 'retry-after': '120' });
    const error = await client().search(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedditUnavailableError);
    expect(error).toMatchObject({ upstreamStatus: 429, retryAfterSeconds: 120 });
    expect(sleeps).toEqual([]);
  });

  it('sleeps until the rate-limit window resets before the next call when none remain', async () => {
    addPosts('typescript', 1);
    let clock = 1_000_000;
    const reddit = client({ now: () => clock });
    fake.rateLimit = { remaining: 0, reset: 7 };
    await reddit.search(input());
    expect(sleeps).toEqual([]);
    fake.rateLimit = null;
    clock += 2000;
    const before = fake.requests.length;
    await reddit.search(input());
    expect(sleeps).toEqual([5000]);
    expect(events).toEqual([`sleep 5000 after ${before} requests`]);
  });

  it('throws RedditUnavailableError when Reddit hangs past the timeout', async () => {
    addPosts('typescript', 1);
    fake.delayMs = 500; // API calls only; the token endpoint answers at once
    const error = await client({ timeoutMs: 50, maxRetries: 1 }).search(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedditUnavailableError);
    expect((error as Error).message).toMatch(/did not answer within 50 ms/);
    expect(sleeps).toEqual([500]);
  });

  it('throws RedditUnavailableError when Reddit cannot be reached', async () => {
    const url = fake.url;
    await fake.close();
    const error = await client({ apiUrl: url, authUrl: url, maxRetries: 0 }).search(input()).catch((e: unknown) => e);
    fake = await startFakeReddit();
    expect(error).toBeInstanceOf(RedditUnavailableError);
    expect((error as Error).message).toMatch(/Could not reach/);
  });

  it('reports rejected client credentials as a blocked app without revealing the secret', async () => {
    const error = await client({ clientSecret: 'wrong-secret' }).search(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedditBlockedError);
    expect(error).toBeInstanceOf(RedditUnavailableError);
    expect((error as Error).message).toBe("Reddit's token endpoint rejected the configured client credentials (HTTP 401)");
    expect((error as Error).message).not.toContain('wrong-secret');
  });

  it('treats a failing token endpoint as Reddit being unavailable', async () => {
    fake.failTokenNext(500, 10);
    const error = await client({ maxRetries: 2 }).search(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedditUnavailableError);
    expect(error).toMatchObject({ upstreamStatus: 500 });
    expect(fake.tokenRequests).toBe(3);
    expect(searches()).toHaveLength(0);
  });
});
