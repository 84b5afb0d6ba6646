import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeReddit, type FakeReddit } from '../../../test/support/fake-reddit.ts';
import { createFirehose } from '../../../test/support/fake-reddit-firehose.ts';
import { createRedditClient, type RedditClientOptions } from './reddit.client.ts';
import { RedditUnavailableError } from './reddit.errors.ts';
import { listingPath } from './reddit.listings.ts';
import { MAX_SUBREDDITS_PER_LISTING } from './reddit.query.ts';
import type { ListingInput, ListingOutput } from './reddit.types.ts';

const USER_AGENT = 'node:subpilot-test:0.1.0 (by /u/subpilot)';
const T0 = 1_700_000_000;

let fake: FakeReddit;
let sleeps: number[];

beforeEach(async () => {
  fake = await startFakeReddit();
  sleeps = [];
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
    },
    ...overrides,
  });
}

const read = (input: Partial<ListingInput> = {}, reddit = client()) =>
  reddit.listing({ subreddits: ['typescript'], source: 'posts', after: null, ...input });

const listed = (output: ListingOutput) => {
  if (!output.ok) throw new Error(`refused: ${output.reason}`);
  return output;
};

const listings = () => fake.requests.filter((r) => /\/(new|comments)$/.test(r.path));

/** One raw call to the fake with a fresh token (for what the client never asks, such as `before`). */
type RawListing = { data: { children: { data: { id: string } }[]; before: string | null; after: string | null; dist: number } };
async function rawGet(path: string): Promise<{ status: number; headers: Headers; body: RawListing }> {
  const basic = Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64');
  const token = await fetch(`${fake.url}/api/v1/access_token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'user-agent': USER_AGENT, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const response = await fetch(`${fake.url}${path}`, { headers: { authorization: `bearer ${token.access_token}`, 'user-agent': USER_AGENT } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as RawListing };
}

describe('the listing path', () => {
  it('names every subreddit once, URL-encoded, with 100 items a page and raw JSON', () => {
    expect(listingPath({ subreddits: ['a', 'B_c'], source: 'posts', after: null })).toBe('/r/a+B_c/new?limit=100&raw_json=1');
    expect(listingPath({ subreddits: ['a'], source: 'comments', after: 't1_zz' })).toBe('/r/a/comments?limit=100&raw_json=1&after=t1_zz');
  });

  it('stays far inside common URL limits with 100 of the longest names', () => {
    const names = Array.from({ length: MAX_SUBREDDITS_PER_LISTING }, (_, i) => `${'n'.repeat(18)}${String(i).padStart(3, '0')}`);
    expect(listingPath({ subreddits: names, source: 'comments', after: 't1_zzzzzzz' }).length).toBeLessThan(2_400);
  });
});

describe('reading a listing', () => {
  it('reads the newest posts first from one combined path', async () => {
    const first = fake.addPost({ subreddit: 'typescript', title: 'Older', selftext: 'body one', created_utc: T0 });
    const second = fake.addPost({ subreddit: 'node', title: 'Newer', created_utc: T0 + 5, over_18: true, author: 'alice' });
    const page = listed(await read({ subreddits: ['typescript', 'node'] }));
    expect(page.items.map((item) => item.id)).toEqual([`t3_${second.id}`, `t3_${first.id}`]);
    expect(page.items[1]).toEqual({
      type: 'post',
      id: `t3_${first.id}`,
      subreddit: 'typescript',
      title: 'Older',
      body: 'body one',
      author: 'fake_user',
      permalink: `https://www.reddit.com/r/typescript/comments/${first.id}/older/`,
      created_at: new Date(T0 * 1000).toISOString(),
      score: 1,
      nsfw: false,
    });
    expect(page.items[0]).toMatchObject({ nsfw: true, author: 'alice' });
    expect(page).toMatchObject({ after: null, skipped: 0 });
    expect(listings()).toMatchObject([{ path: '/r/typescript+node/new', query: { limit: '100', raw_json: '1' } }]);
  });

  it('reads comments with the title of their post and an absolute link to the comment itself', async () => {
    const post = fake.addPost({ subreddit: 'typescript', title: 'Strict mode?', over_18: true });
    const comment = fake.addComment({ subreddit: 'typescript', body: 'Turn on strict — c’est génial 🎉', author: 'bob', created_utc: T0 });
    const page = listed(await read({ source: 'comments', consumer: 'acct_1' }));
    expect(page.items).toEqual([
      {
        type: 'comment',
        id: `t1_${comment.id}`,
        subreddit: 'typescript',
        title: 'Strict mode?',
        body: 'Turn on strict — c’est génial 🎉',
        author: 'bob',
        permalink: `https://www.reddit.com/r/typescript/comments/${post.id}/strict_mode/${comment.id}/`,
        created_at: new Date(T0 * 1000).toISOString(),
        score: 1,
        nsfw: true,
      },
    ]);
    expect(listings()[0]!.path).toBe('/r/typescript/comments');
  });

  it('pages back with after until the listing ends', async () => {
    const ids = Array.from({ length: 230 }, (_, i) => fake.addComment({ subreddit: 'typescript', body: `c${i}` }).id);
    const reddit = client();
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page = listed(await read({ source: 'comments', after }, reddit));
      seen.push(...page.items.map((item) => item.id));
      after = page.after;
    } while (after);
    expect(seen).toEqual(ids.reverse().map((id) => `t1_${id}`));
    expect(listings().map((r) => r.query.after ?? null)).toEqual([null, seen[99], seen[199]]);
  });

  it('answers a single private subreddit with the reason instead of items', async () => {
    fake.subreddits.set('secret', 'private');
    expect(await read({ subreddits: ['secret'] })).toEqual({ ok: false, status: 403, reason: 'private' });
    expect(await read({ subreddits: ['nowhere'], source: 'comments' })).toEqual({ ok: false, status: 302, reason: 'not_found' });
  });

  it('reads the public subreddits of a combined path that silently drops a private one', async () => {
    fake.subreddits.set('secret', 'private');
    fake.addComment({ subreddit: 'secret', body: 'hidden' });
    const visible = fake.addComment({ subreddit: 'typescript', body: 'shown' });
    const page = listed(await read({ subreddits: ['secret', 'typescript'], source: 'comments' }));
    expect(page.items.map((item) => item.id)).toEqual([`t1_${visible.id}`]);
  });

  it('retries a 5xx and then reads the page', async () => {
    fake.addPost({ subreddit: 'typescript', title: 'After the outage' });
    fake.failNext(503);
    const page = listed(await read());
    expect(page.items.map((item) => item.title)).toEqual(['After the outage']);
    expect(sleeps).toHaveLength(1);
  });

  it('skips and counts a child it cannot read, and keeps the others', async () => {
    fake.addComment({ subreddit: 'typescript', body: 'fine' });
    fake.addComment({ subreddit: 'typescript', body: 'bad' }).raw = { created_utc: 'yesterday' };
    const page = listed(await read({ source: 'comments' }));
    expect(page.items.map((item) => item.body)).toEqual(['fine']);
    expect(page.skipped).toBe(1);
  });

  it('throws RedditUnavailableError for a 200 that is not a listing and for an unexpected status', async () => {
    fake.failNext(200);
    await expect(read()).rejects.toBeInstanceOf(RedditUnavailableError);
    fake.failNext(400);
    await expect(read()).rejects.toMatchObject({ upstreamStatus: 400 });
  });
});

describe('reading up to 100 posts and comments by fullname', () => {
  it('asks /api/info once for a mixed batch and gets the ones Reddit can show, in any order, with their kinds', async () => {
    let now = T0 * 1000;
    fake.firehose = createFirehose({ clock: () => now, perSecond: 50, unavailable: 0.1, late: { share: 0, maxSeconds: 1 } });
    now += 5_000;
    const made = fake.firehose.items().slice(0, 100);
    const answer = await client().info(made.map((item) => `${item.kind}_${item.id}`), 'stream');
    const visible = made.filter((item) => item.visibleMs !== null);
    expect(answer.items.map((item) => item.id).sort()).toEqual(visible.map((item) => `${item.kind}_${item.id}`).sort());
    expect(answer.items.find((item) => item.type === 'comment')).toMatchObject({ title: '' });
    expect(fake.requests.filter((r) => r.path === '/api/info')).toHaveLength(1);
    expect(fake.requests.find((r) => r.path === '/api/info')!.query).toMatchObject({ raw_json: '1' });
  });

  it('refuses more than 100 fullnames before asking, and asks nothing for none', async () => {
    const names = Array.from({ length: 101 }, (_, i) => `t3_${(1000 + i).toString(36)}`);
    await expect(client().info(names)).rejects.toThrow(RangeError);
    expect(await client().info([])).toEqual({ items: [], skipped: 0 });
    expect(fake.requests.filter((r) => r.path === '/api/info')).toHaveLength(0);
  });
});

describe("the fake Reddit's listings and rate window", () => {
  it('lists the items newer than before, closest first in newest-first order', async () => {
    const ids = Array.from({ length: 5 }, (_, i) => fake.addPost({ subreddit: 'typescript', title: `p${i}` }).id);
    const answer = await rawGet(`/r/typescript/new?limit=2&before=t3_${ids[1]}`);
    expect(answer.body.data.children.map((c) => c.data.id)).toEqual([ids[3], ids[2]]);
    expect(answer.body.data).toMatchObject({ before: `t3_${ids[3]}`, after: `t3_${ids[2]}` });
  });

  it('lists only the newest 1,000 items, as Reddit does', async () => {
    for (let i = 0; i < 1001; i++) fake.addComment({ subreddit: 'typescript', body: `c${i}` });
    const answer = await rawGet(`/r/typescript/comments?limit=100&after=t1_${fake.comments[1]!.id}`);
    expect(answer.body.data).toMatchObject({ dist: 0, after: null });
  });

  it('lets a client that obeys the headers through the window without a 429', async () => {
    fake.addPost({ subreddit: 'typescript', title: 'One' });
    let now = 10 * 60_000 + 50_000;
    fake.clock = () => now;
    fake.limitPerMinute = 2;
    const reddit = client({ now: () => now, sleep: async (ms) => void (sleeps.push(ms), (now += ms)) });
    for (let i = 0; i < 4; i++) listed(await read({}, reddit));
    expect(sleeps).toEqual([10_000]);
    expect(listings()).toHaveLength(4);
  });

  it('answers 429 with Retry-After beyond the limit, then lets calls through in the next minute', async () => {
    let now = 5 * 60_000 + 45_000;
    fake.clock = () => now;
    fake.limitPerMinute = 1;
    fake.addPost({ subreddit: 'typescript', title: 'One' });
    const first = await rawGet('/r/typescript/new');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('0.0');
    const refused = await rawGet('/r/typescript/new');
    expect(refused.status).toBe(429);
    expect([refused.headers.get('retry-after'), refused.headers.get('x-ratelimit-reset'), refused.headers.get('x-ratelimit-used')]).toEqual(['15', '15', '2']);
    now += 15_000;
    const next = await rawGet('/r/typescript/new');
    expect([next.status, next.headers.get('x-ratelimit-used'), next.headers.get('x-ratelimit-reset')]).toEqual([200, '1', '60']);
  });
});
