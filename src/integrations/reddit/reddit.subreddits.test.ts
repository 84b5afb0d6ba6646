import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeReddit, type FakeReddit } from '../../../test/support/fake-reddit.ts';
import { createRedditClient } from './reddit.client.ts';
import { RedditBlockedError, RedditUnavailableError } from './reddit.errors.ts';
import { reasonFromAbout } from './reddit.mapping.ts';
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
  it('settles public, NSFW, private and quarantined names with one /api/info request', async () => {
    fake.subreddits.set('secret', 'private');
    fake.subreddits.set('edgy', 'quarantined');
    fake.subreddits.set('spicy', 'public');
    fake.nsfwSubreddits.add('spicy');
    const described = await client().describeSubreddits(['typescript', 'spicy', 'secret', 'edgy']);
    expect(described).toEqual([
      { name: 'typescript', displayName: 'TypeScript', state: 'ok', nsfw: false },
      { name: 'spicy', displayName: 'spicy', state: 'ok', nsfw: true },
      { name: 'secret', displayName: 'secret', state: 'private', nsfw: false },
      { name: 'edgy', displayName: 'edgy', state: 'quarantined', nsfw: false },
    ]);
    expect(apiCalls().map((r) => [r.path, r.query.sr_name])).toEqual([['/api/info', 'typescript,spicy,secret,edgy']]);
  });

  it('asks the about page of names /api/info leaves out or returns bare, and tells banned from missing and forbidden', async () => {
    fake.subreddits.set('gone', 'banned');
    fake.subreddits.set('hushed', 'forbidden');
    const described = await client().describeSubreddits(['gone', 'hushed', 'typescript', 'nowhere']);
    expect(described.map((d) => d.state)).toEqual(['banned', 'forbidden', 'ok', 'not_found']);
    expect(apiCalls().map((r) => r.path)).toEqual(['/api/info', '/r/gone/about', '/r/hushed/about', '/r/nowhere/about']);
  });

  it('keeps a recorded banned, missing or forbidden state without its about page while /api/info answers the same way', async () => {
    fake.subreddits.set('gone', 'banned');
    fake.subreddits.set('hushed', 'forbidden');
    fake.subreddits.set('closed', 'private');
    const previous = new Map<string, 'banned' | 'not_found' | 'forbidden'>([
      ['gone', 'banned'],
      ['nowhere', 'not_found'],
      ['hushed', 'forbidden'],
      // A subreddit recorded banned that /api/info now returns private has changed: Reddit's answer wins.
      ['closed', 'banned'],
      // One recorded missing that now comes back bare exists again: its about page is asked.
      ['hushed2', 'not_found'],
    ]);
    fake.subreddits.set('hushed2', 'forbidden');
    const described = await client().describeSubreddits(['gone', 'nowhere', 'hushed', 'closed', 'hushed2'], { previous: (name) => previous.get(name) });
    expect(described.map((d) => d.state)).toEqual(['banned', 'not_found', 'forbidden', 'private', 'forbidden']);
    expect(apiCalls().map((r) => r.path)).toEqual(['/api/info', '/r/hushed2/about']);
  });

  it('asks about at most 100 names per request', async () => {
    const names = Array.from({ length: 150 }, (_, i) => `sub${i}`);
    for (const name of names) fake.subreddits.set(name, 'public');
    const described = await client().describeSubreddits(names);
    expect(described.every((d) => d.state === 'ok')).toBe(true);
    expect(apiCalls().map((r) => r.query.sr_name!.split(',').length)).toEqual([100, 50]);
  });

  it('makes at most maxRequests requests, leaving out the names it did not settle, and hands on each answer as soon as it is read', async () => {
    const names = [...Array.from({ length: 100 }, (_, i) => `pub${i}`), 'gone', 'nowhere', 'typescript'];
    for (const name of names.slice(0, 100)) fake.subreddits.set(name, 'public');
    fake.subreddits.set('gone', 'banned');
    const heard: string[][] = [];
    const described = await client().describeSubreddits(names, { maxRequests: 3, onDescribed: async (batch) => void heard.push(batch.map((d) => d.name)) });
    // /api/info for the first 100, /api/info for the last 3 (typescript settled), one about page (gone): nowhere is left for later.
    expect(apiCalls().map((r) => r.path)).toEqual(['/api/info', '/api/info', '/r/gone/about']);
    expect(heard.map((batch) => batch.length)).toEqual([100, 1, 1]);
    expect(heard.slice(1)).toEqual([['typescript'], ['gone']]);
    expect(described.map((d) => d.name)).toEqual([...names.slice(0, 100), 'gone', 'typescript']);
  });

  it('hands on what it read before a later request failed, then throws', async () => {
    const names = Array.from({ length: 150 }, (_, i) => `pub${i}`);
    for (const name of names) fake.subreddits.set(name, 'public');
    let infos = 0;
    fake.failWhen = (path) => (path === '/api/info' && ++infos >= 2 ? 503 : null);
    const heard: string[] = [];
    const error = await client()
      .describeSubreddits(names, { onDescribed: async (batch) => void heard.push(...batch.map((d) => d.name)) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedditUnavailableError);
    expect(heard).toEqual(names.slice(0, 100));
  });

  it('reads an about page that answers an empty Listing as a subreddit that does not exist', () => {
    // Pyprohly/reddit-api-doc-notes (subreddit.rst, GET /r/{subreddit}/about): "returns an empty listing (strangely)".
    const empty = { kind: 'Listing', data: { modhash: null, dist: 0, children: [], after: null, before: null } };
    expect(reasonFromAbout(200, empty)).toBe('not_found');
    expect(reasonFromAbout(404, { reason: 'banned', message: 'Not Found', error: 404 })).toBe('banned');
    expect(reasonFromAbout(403, { reason: 'quarantined', quarantine_message: 'x', message: 'Forbidden', error: 403 })).toBe('quarantined');
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
      () => client().getItem('t3_a1'),
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
    const error = await reddit.getItem('t3_a1').catch((e: unknown) => e);
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
