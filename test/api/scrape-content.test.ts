import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedditClient } from '../../src/integrations/reddit/reddit.client.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

const hoursAgo = (h: number) => Math.floor(Date.now() / 1000) - h * 3600;

/** A pino logger whose JSON lines land in `lines`, as the runner's log would in production. */
const logInto = (lines: Record<string, unknown>[]) =>
  pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    }),
  );

describe.each(engines)('Reddit content in scrape results on %s', (engine) => {
  let app: TestApp;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    app = await startTestApp(engine, { overrides: { log: logInto(lines) } });
  });
  afterAll(() => app.close());

  const scrape = async (keyword: string) => {
    const { token } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/contentcheck'], keywords: [keyword] } });
    expect(response.status).toBe(200);
    return { token, scrape: await response.json() };
  };

  it('caps the body, refuses a javascript: link and permalink, drops control characters and keeps bidi text', async () => {
    app.reddit.posts.push({
      id: 'h1',
      subreddit: 'contentcheck',
      title: 'hostile \u0007title \u202Eevil',
      selftext: `hostile ${'x'.repeat(2_000_000)}`,
      created_utc: hoursAgo(1),
      raw: { url: 'javascript:alert(3)', permalink: 'javascript:alert(1)' },
    });
    const { scrape: result } = await scrape('hostile');
    expect(result.status).toBe('completed');
    const [post] = result.results;
    expect(post.body).toHaveLength(40_000);
    expect(post.truncated).toBe(true);
    expect(post.title).toBe('hostile title \u202Eevil');
    expect(post.permalink).toBe('https://www.reddit.com/r/contentcheck/comments/h1/');
    expect(post.url).toBe(post.permalink);
  });

  it("resolves a crosspost's relative url against https://www.reddit.com", async () => {
    app.reddit.posts.push({
      id: 'h2',
      subreddit: 'contentcheck',
      title: 'crosspost of a thing',
      created_utc: hoursAgo(2),
      raw: { url: '/r/RDDT/comments/1tp4wsi/a_thing/', is_self: false, crosspost_parent: 't3_1tp4wsi' },
    });
    const { scrape: result } = await scrape('crosspost');
    expect(result.results[0].url).toBe('https://www.reddit.com/r/RDDT/comments/1tp4wsi/a_thing/');
    expect(result.results[0].truncated).toBe(false);
  });

  it('skips and counts posts it cannot read, completes with the good ones and logs the skip with the scrape id', async () => {
    app.reddit.posts.push(
      { id: 'i1', subreddit: 'contentcheck', title: 'malformed good one', created_utc: hoursAgo(3) },
      { id: 'i2', subreddit: 'contentcheck', title: 'malformed far future', created_utc: hoursAgo(4), raw: { created_utc: 1e20 } },
    );
    app.reddit.extraChildren.push({ kind: 't3', data: 'not an object' }, { kind: 't3', data: { title: 'malformed, no id' } });
    try {
      const { token, scrape: result } = await scrape('malformed');
      expect(result).toMatchObject({ status: 'completed', error: null, skipped: 3, credits: { charged: 1 } });
      expect(result.results.map((r: { id: string }) => r.id)).toEqual(['t3_i1']);
      const again = await (await app.api('GET', `/api/v1/scrapes/${result.id}`, { token })).json();
      expect(again.skipped).toBe(3);
      const line = lines.find((l) => l.scrape_id === result.id && l.skipped === 3);
      expect(line).toMatchObject({ level: 40, items: expect.arrayContaining([{ id: 't3_i2', problem: expect.stringContaining('created_utc') }]) });
    } finally {
      app.reddit.extraChildren.length = 0;
    }
  });

  it('says skipped 0 when every post could be read', async () => {
    const { scrape: result } = await scrape('crosspost');
    expect(result.skipped).toBe(0);
  });
});

describe.each(engines)('an unexpected failure of a scrape on %s', (engine) => {
  it('is logged with the scrape id, and the scrape fails with its hold released', async () => {
    const lines: Record<string, unknown>[] = [];
    // An outside client that breaks in a way nobody planned for (not a Reddit outage).
    const reddit: RedditClient = {
      search: () => Promise.reject(new TypeError('something nobody planned for')),
      getItem: () => Promise.resolve(null),
      describeSubreddits: (names) => Promise.resolve(names.map((name) => ({ name, displayName: name, state: 'ok', nsfw: false }))),
      listing: () => Promise.reject(new TypeError('something nobody planned for')),
      info: () => Promise.reject(new TypeError('something nobody planned for')),
    };
    const app = await startTestApp(engine, { overrides: { reddit, log: logInto(lines) } });
    try {
      const { token, accountId } = await app.accountWithKey(10);
      await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/boom'], keywords: ['boom'] } });
      const stored = await (await app.api('GET', '/api/v1/scrapes', { token })).json();
      expect(stored.data[0]).toMatchObject({ status: 'failed', credits: { charged: 0 } });
      expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
      const line = lines.find((l) => l.scrape_id === stored.data[0].id && l.level === 50);
      expect(line).toMatchObject({ msg: 'the scrape failed unexpectedly', err: { name: 'TypeError', message: 'something nobody planned for' } });
    } finally {
      await app.close();
    }
  });
});
