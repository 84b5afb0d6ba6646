import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { PRICES, startPublishingApp, type PublishingApp } from '../support/publishing.ts';

const DAY = 86_400_000;
const TODAY = Date.parse('2026-11-23T10:00:00.000Z');
const prefixOf = (token: string) => token.slice(0, 16);

describe.each(engines)('GET /api/v1/usage/daily on %s', (engine) => {
  let app: PublishingApp;
  let now = TODAY;
  let owner: { accountId: string; token: string };
  let otherKey: string;
  beforeAll(async () => {
    app = await startPublishingApp(engine, { overrides: () => ({ clock: () => new Date(now) }) });
    app.llm.reply = () => 'Title: Daily\n\nA draft.';
    app.reddit.posts.push({ id: 'd1', subreddit: 'node', title: 'node daily', created_utc: Math.floor(TODAY / 1000) - 5 * 86_400 });

    // Two days ago: a scrape of 2 pairs. Today: a draft, a failed draft (charged and refunded), a
    // scrape with the account's other key, and a grant (not spend).
    owner = await app.accountWithKey(100);
    otherKey = (await app.services.keys.createKey(owner.accountId, 'second tool')).token;
    const post = { type: 'post', subreddit: 'r/node', instructions: 'x' };
    now = TODAY - 2 * DAY;
    expect((await app.api('POST', '/api/v1/scrape', { token: owner.token, body: { subreddits: ['r/node'], keywords: ['node', 'daily'] } })).status).toBe(200);
    now = TODAY;
    expect((await app.api('POST', '/api/v1/generate', { token: owner.token, body: post })).status).toBe(200);
    app.llm.failNext(500);
    expect((await app.api('POST', '/api/v1/generate', { token: owner.token, body: post })).status).toBe(502);
    expect((await app.api('POST', '/api/v1/scrape', { token: otherKey, body: { subreddits: ['r/node'], keywords: ['node'] } })).status).toBe(200);
    await app.services.credits.grant(owner.accountId, 50, 'top-up');
  });
  afterAll(() => app.close());

  const daily = (query: string, token = owner.token) => app.api('GET', `/api/v1/usage/daily${query}`, { token });

  it('the account’s days, oldest first ending today, with the days without spend and refunds netted', async () => {
    const response = await daily('?days=3');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      key: null,
      days: [
        { date: '2026-11-21', credits: 2 },
        { date: '2026-11-22', credits: 0 },
        { date: '2026-11-23', credits: PRICES.generate + 1 },
      ],
      total: 2 + PRICES.generate + 1,
      month_to_date: null,
    });
  });

  it('30 days by default, the last one today', async () => {
    const { days, total } = await (await daily('')).json();
    expect(days).toHaveLength(30);
    expect(days[0].date).toBe('2026-10-25');
    expect(days.at(-1).date).toBe('2026-11-23');
    expect(total).toBe(2 + PRICES.generate + 1);
  });

  it('one key’s days and its month so far against its limit', async () => {
    await app.database.db.updateTable('api_keys').set({ monthly_credit_limit: 40 }).where('prefix', '=', prefixOf(owner.token)).execute();
    const body = await (await daily(`?key=${prefixOf(owner.token)}&days=3`)).json();
    expect(body).toMatchObject({
      key: { prefix: prefixOf(owner.token), name: expect.any(String) },
      days: [
        { date: '2026-11-21', credits: 2 },
        { date: '2026-11-22', credits: 0 },
        { date: '2026-11-23', credits: PRICES.generate },
      ],
      total: 2 + PRICES.generate,
      month_to_date: { spent: 2 + PRICES.generate, limit: 40, resets_at: '2026-12-01T00:00:00.000Z' },
    });
    const second = await (await daily(`?key=${prefixOf(otherKey)}&days=1`)).json();
    expect(second).toMatchObject({ key: { name: 'second tool' }, days: [{ date: '2026-11-23', credits: 1 }], month_to_date: { spent: 1, limit: null } });
  });

  it.each([['0'], ['91'], ['1.5'], ['1e1'], ['thirty']])('days=%s is a 422', async (days) => {
    const response = await daily(`?days=${days}`);
    expect(response.status).toBe(422);
    expect((await response.json()).code).toBe('request.invalid');
  });

  it('days=1 and days=90 are the bounds', async () => {
    expect((await (await daily('?days=1')).json()).days).toEqual([{ date: '2026-11-23', credits: PRICES.generate + 1 }]);
    expect((await (await daily('?days=90')).json()).days).toHaveLength(90);
  });

  it('an unknown prefix and another account’s key are a 404 credits.key_not_found; a malformed prefix is a 422', async () => {
    const stranger = await app.accountWithKey(10);
    for (const prefix of ['ak_live_00000000', prefixOf(stranger.token)]) {
      const response = await daily(`?key=${prefix}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'credits.key_not_found' });
    }
    expect((await daily('?key=ak_live_xyz')).status).toBe(422);
  });

  it('is free and never a 402, even at a balance of zero', async () => {
    const broke = await app.accountWithKey(0);
    const response = await daily('?days=2', broke.token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ days: [{ credits: 0 }, { credits: 0 }], total: 0 });
    expect(await app.services.credits.spendableBalance(broke.accountId)).toBe(0);
  });
});
