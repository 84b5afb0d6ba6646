import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';

const hoursAgo = (h: number) => Math.floor(Date.now() / 1000) - h * 3600;

describe.each(engines)('POST /api/v1/scrape (spec section 4) on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.posts.push(
      { id: 'a1', subreddit: 'typescript', title: 'Node tips', selftext: 'use strict types', created_utc: hoursAgo(3) },
      { id: 'a2', subreddit: 'typescript', title: 'Deno vs Node', selftext: '', created_utc: hoursAgo(1) },
      { id: 'a3', subreddit: 'typescript', title: 'Unrelated', selftext: 'nothing here', created_utc: hoursAgo(2) },
      { id: 'b1', subreddit: 'node', title: 'Streams in NODE', selftext: 'pipes', created_utc: hoursAgo(5) },
      { id: 'b2', subreddit: 'node', title: 'node nsfw', selftext: '', created_utc: hoursAgo(4), over_18: true },
      { id: 'c1', subreddit: 'elsewhere', title: 'node everywhere', selftext: '', created_utc: hoursAgo(1) },
    );
    app.reddit.subreddits.set('secretclub', 'private');
    app.reddit.subreddits.set('gone', 'banned');
  });
  afterAll(() => app.close());

  const ledgerMatches = async (accountId: string) => {
    const balance = await app.services.credits.spendableBalance(accountId);
    expect(await ledgerSum(app.services.db, accountId)).toBe(balance);
    return balance;
  };

  it('returns matching posts of the requested subreddits, newest first, and charges subreddits × keywords', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/typescript', 'r/node'], keywords: ['node', 'pipes'] },
    });
    expect(response.status).toBe(200);
    const scrape = await response.json();
    expect(scrape).toMatchObject({
      status: 'completed',
      subreddits: ['r/typescript', 'r/node'],
      keywords: ['node', 'pipes'],
      unavailable: [],
      credits: { charged: 4, balance: 6 },
    });
    expect(scrape.id).toMatch(/^scr_/);
    expect(scrape.results.map((r: { id: string }) => r.id)).toEqual(['t3_a2', 't3_a1', 't3_b1']);
    expect(scrape.results[2]).toMatchObject({
      subreddit: 'r/node',
      matched_keywords: ['node', 'pipes'],
      nsfw: false,
      permalink: expect.stringMatching(/^https:\/\//),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await ledgerMatches(accountId)).toBe(6);
  });

  it('folds duplicate subreddits and keywords case-insensitively and charges them once', async () => {
    const { token } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/typescript', 'r/TypeScript'], keywords: ['Node', 'node ', 'NODE'] },
    });
    const scrape = await response.json();
    expect(scrape.subreddits).toEqual(['r/typescript']);
    expect(scrape.keywords).toEqual(['Node']);
    expect(scrape.credits.charged).toBe(1);
  });

  it('drops NSFW posts unless include_nsfw is true', async () => {
    const { token } = await app.accountWithKey(10);
    const body = { subreddits: ['r/node'], keywords: ['nsfw'] };
    expect((await (await app.api('POST', '/api/v1/scrape', { token, body })).json()).results).toEqual([]);
    const withNsfw = await (await app.api('POST', '/api/v1/scrape', { token, body: { ...body, include_nsfw: true } })).json();
    expect(withNsfw.results.map((r: { id: string }) => r.id)).toEqual(['t3_b2']);
  });

  it('refunds the pairs of private, banned and missing subreddits and lists them as unavailable', async () => {
    const { token, accountId } = await app.accountWithKey(20);
    const response = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/typescript', 'r/secretclub', 'r/gone', 'r/doesnotexist'], keywords: ['node', 'deno'] },
    });
    const scrape = await response.json();
    expect(response.status).toBe(200);
    expect(scrape.unavailable).toEqual(
      expect.arrayContaining([
        { subreddit: 'r/secretclub', reason: 'private' },
        { subreddit: 'r/gone', reason: 'banned' },
        { subreddit: 'r/doesnotexist', reason: 'not_found' },
      ]),
    );
    expect(scrape.credits).toEqual({ charged: 2, balance: 18 });
    expect(await ledgerMatches(accountId)).toBe(18);
  });

  it('402 when the balance is below the price of the pairs, while a smaller request passes (7)', async () => {
    const { token, accountId } = await app.accountWithKey(3);
    const big = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/typescript', 'r/node'], keywords: ['node', 'pipes'] },
    });
    expect(big.status).toBe(402);
    expect(big.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await big.json()).toMatchObject({ title: 'Payment Required', balance: 3, required: 4, code: 'credits.insufficient' });
    const small = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['node'] } });
    expect(small.status).toBe(200);
    expect(await ledgerMatches(accountId)).toBe(2);
  });

  it('402 at zero balance (7), while the free reads still answer 200', async () => {
    const { token } = await app.accountWithKey(0);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['x'] } });
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ balance: 0, required: 1 });
    expect((await app.api('GET', '/api/v1/balance', { token })).status).toBe(200);
    expect((await app.api('GET', '/api/v1/usage', { token })).status).toBe(200);
    expect((await app.api('GET', '/api/v1/scrapes', { token })).status).toBe(200);
  });

  it('Reddit answering 503 gives the caller 503 problem+json and leaves the balance unchanged', async () => {
    const { token, accountId } = await app.accountWithKey(5);
    app.reddit.failAlways(503);
    try {
      const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['node'] } });
      expect([502, 503]).toContain(response.status);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = await response.json();
      expect(problem.code).toBe('scrape.reddit_unavailable');
      expect(await ledgerMatches(accountId)).toBe(5);
      const stored = await (await app.api('GET', `/api/v1/scrapes/${problem.scrape_id}`, { token })).json();
      expect(stored).toMatchObject({ status: 'failed', credits: { charged: 0 } });
    } finally {
      app.reddit.failAlways(null);
    }
  });

  it('a scrape is readable by its account and is a 404 for any other account', async () => {
    const owner = await app.accountWithKey(5);
    const other = await app.accountWithKey(5);
    const created = await (
      await app.api('POST', '/api/v1/scrape', { token: owner.token, body: { subreddits: ['r/node'], keywords: ['node'] } })
    ).json();
    const mine = await app.api('GET', `/api/v1/scrapes/${created.id}`, { token: owner.token });
    expect(mine.status).toBe(200);
    expect((await mine.json()).results).toEqual(created.results);
    expect((await app.api('GET', `/api/v1/scrapes/${created.id}`, { token: other.token })).status).toBe(404);
    const list = await (await app.api('GET', '/api/v1/scrapes', { token: owner.token })).json();
    expect(list.data.map((s: { id: string }) => s.id)).toEqual([created.id]);
  });

  it('lists scrapes and usage newest first with a cursor', async () => {
    const { token } = await app.accountWithKey(10);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const body = { subreddits: ['r/node'], keywords: [`k${i}`] };
      ids.push((await (await app.api('POST', '/api/v1/scrape', { token, body })).json()).id);
    }
    const first = await (await app.api('GET', '/api/v1/scrapes?limit=2', { token })).json();
    expect(first.data.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = await (await app.api('GET', `/api/v1/scrapes?limit=2&cursor=${first.next_cursor}`, { token })).json();
    expect(second.data.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    expect(second.has_more).toBe(false);
    const usage = await (await app.api('GET', '/api/v1/usage?limit=2', { token })).json();
    expect(usage.data.map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([['charge', -1], ['charge', -1]]);
    const rest = await (await app.api('GET', `/api/v1/usage?cursor=${usage.next_cursor}`, { token })).json();
    expect(rest.data.map((e: { type: string }) => e.type)).toEqual(['charge', 'grant']);
  });

  it('a usage entry says a scrape made with a key came through the API, and a grant, which no call made, says null', async () => {
    const { token } = await app.accountWithKey(5);
    const scrape = await (await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['node'] } })).json();
    const usage = await (await app.api('GET', '/api/v1/usage', { token })).json();
    expect(usage.data.map((e: { type: string; scrape_id: string | null; via: string | null }) => [e.type, e.scrape_id, e.via])).toEqual([
      ['charge', scrape.id, 'api'],
      ['grant', null, null],
    ]);
  });
});

describe.each(engines)('scrape without Reddit credentials on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { redditConfigured: false });
  });
  afterAll(() => app.close());

  it('answers 503 "Reddit is not configured" and charges nothing', async () => {
    const { token, accountId } = await app.accountWithKey(5);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['x'] } });
    expect(response.status).toBe(503);
    expect((await response.json()).detail).toContain('Reddit is not configured');
    expect(await app.services.credits.spendableBalance(accountId)).toBe(5);
  });
});
