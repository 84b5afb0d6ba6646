import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeReddit, type FakeReddit } from '../../../test/support/fake-reddit.ts';
import { createRedditClient } from './reddit.client.ts';
import { RedditBlockedError, RedditUnavailableError } from './reddit.errors.ts';
import type { SearchInput } from './reddit.types.ts';

let fake: FakeReddit;
beforeEach(async () => {
  fake = await startFakeReddit();
  fake.posts.push({ id: 'a1', subreddit: 'TypeScript', title: 'vitest', created_utc: 1_700_000_000 });
});
afterEach(() => fake.close());

const client = () =>
  createRedditClient({
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    userAgent: 'node:subpilot-test:0.1.0 (by /u/subpilot)',
    apiUrl: fake.url,
    authUrl: fake.url,
    maxRetries: 0,
    sleep: async () => undefined,
  });
const apiCalls = () => fake.requests.filter((r) => r.path !== '/api/v1/access_token');
const search: Omit<SearchInput, 'subreddits'> = { keywords: ['vitest'], sort: 'new', time: 'all', limit: 10, includeNsfw: false };

describe('describing subreddits', () => {
  it('settles public, NSFW, private, quarantined and missing names with one /api/info request', async () => {
    fake.subreddits.set('secret', 'private');
    fake.subreddits.set('edgy', 'quarantined');
    fake.subreddits.set('spicy', 'public');
    fake.nsfwSubreddits.add('spicy');
    const described = await client().describeSubreddits(['typescript', 'spicy', 'secret', 'edgy', 'nowhere']);
    expect(described).toEqual([
      { name: 'typescript', displayName: 'TypeScript', state: 'ok', nsfw: false },
      { name: 'spicy', displayName: 'spicy', state: 'ok', nsfw: true },
      { name: 'secret', displayName: 'secret', state: 'private', nsfw: false },
      { name: 'edgy', displayName: 'edgy', state: 'quarantined', nsfw: false },
      { name: 'nowhere', displayName: 'nowhere', state: 'not_found', nsfw: false },
    ]);
    expect(apiCalls().map((r) => [r.path, r.query.sr_name])).toEqual([['/api/info', 'typescript,spicy,secret,edgy,nowhere']]);
  });

  it('asks the about page only of names that /api/info returns bare, and says forbidden for a 403 without a reason', async () => {
    fake.subreddits.set('gone', 'banned');
    fake.subreddits.set('hushed', 'forbidden');
    const described = await client().describeSubreddits(['gone', 'hushed', 'typescript']);
    expect(described.map((d) => d.state)).toEqual(['banned', 'forbidden', 'ok']);
    expect(apiCalls().map((r) => r.path)).toEqual(['/api/info', '/r/gone/about', '/r/hushed/about']);
  });

  it('asks about at most 100 names per request', async () => {
    const names = Array.from({ length: 150 }, (_, i) => `sub${i}`);
    const described = await client().describeSubreddits(names);
    expect(described.every((d) => d.state === 'not_found')).toBe(true);
    expect(apiCalls().map((r) => r.query.sr_name!.split(',').length)).toEqual([100, 50]);
  });

  it('reports a single-subreddit search refused without a reason as forbidden, not private', async () => {
    fake.subreddits.set('hushed', 'forbidden');
    const { unavailable } = await client().search({ ...search, subreddits: ['hushed'] });
    expect(unavailable).toEqual([{ subreddit: 'hushed', reason: 'forbidden' }]);
  });
});

describe('a Reddit that blocks the app', () => {
  it('throws RedditBlockedError, never a subreddit reason, when every call answers the HTML block page', async () => {
    fake.blockApp('html');
    for (const call of [
      () => client().search({ ...search, subreddits: ['typescript'] }),
      () => client().describeSubreddits(['typescript']),
      () => client().getPost('t3_a1'),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedditBlockedError);
      expect(error).toMatchObject({ upstreamStatus: 403 });
    }
  });

  it('throws RedditBlockedError when an API call answers an HTML 403 with a valid token', async () => {
    const reddit = client();
    await reddit.describeSubreddits(['typescript']);
    fake.blockApp('html');
    const error = await reddit.getPost('t3_a1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedditBlockedError);
    expect((error as Error).message).toMatch(/blocked/);
  });

  it('throws RedditBlockedError when the token endpoint answers 401 or 403', async () => {
    for (const status of [401, 403] as const) {
      fake.blockApp(status);
      const error = await client().describeSubreddits(['typescript']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedditBlockedError);
      expect(error).toMatchObject({ upstreamStatus: status });
    }
  });

  it('keeps a JSON 403 a matter of the subreddit, and a 503 a matter of Reddit being unavailable', async () => {
    fake.subreddits.set('secret', 'private');
    expect((await client().search({ ...search, subreddits: ['secret'] })).unavailable).toEqual([{ subreddit: 'secret', reason: 'private' }]);
    fake.failAlways(503);
    const error = await client().describeSubreddits(['typescript']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedditUnavailableError);
    expect(error).not.toBeInstanceOf(RedditBlockedError);
  });
});
