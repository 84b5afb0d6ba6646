import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsIn } from '../../src/modules/credits/credits.usecases.ts';
import { transaction } from '../../src/shared/db/database.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { PRICES, startPublishingApp, type PublishingApp } from '../support/publishing.ts';

const NOV_30_LATE = Date.parse('2026-11-30T23:00:00.000Z');
const DEC_1 = '2026-12-01T00:00:00.000Z';
const scrapeBody = { subreddits: ['r/node'], keywords: ['node'] };

describe.each(engines)('hard monthly spend limits of keys on %s', (engine) => {
  let app: PublishingApp;
  let now = NOV_30_LATE;
  beforeAll(async () => {
    app = await startPublishingApp(engine, { overrides: () => ({ clock: () => new Date(now) }) });
    app.llm.reply = () => 'Title: Limits\n\nA draft within budget.';
    app.reddit.posts.push({ id: 'k1', subreddit: 'node', title: 'node limits', created_utc: Math.floor(NOV_30_LATE / 1000) - 3600 });
  });
  afterAll(() => app.close());

  const keyIdOf = async (token: string) =>
    (await app.database.db.selectFrom('api_keys').select('id').where('prefix', '=', token.slice(0, 16)).executeTakeFirstOrThrow()).id;
  const setLimit = async (token: string, limit: number) =>
    app.database.db.updateTable('api_keys').set({ monthly_credit_limit: limit }).where('id', '=', await keyIdOf(token)).execute();
  const counter = async (token: string, month: string) => {
    const row = await app.database.db
      .selectFrom('key_monthly_spend')
      .select('spent')
      .where('key_id', '=', await keyIdOf(token))
      .where('month', '=', month)
      .executeTakeFirst();
    return Number(row?.spent ?? 0);
  };
  const scrape = (token: string, body: unknown = scrapeBody) => app.api('POST', '/api/v1/scrape', { token, body });
  const generate = (token: string) => app.api('POST', '/api/v1/generate', { token, body: { type: 'post', subreddit: 'r/node', instructions: 'x' } });

  it('200 concurrent scrapes on a key limited to 50 a month spend exactly 50 credits, the rest get 402 key_limit_reached, and the account’s other key still scrapes', async () => {
    now = NOV_30_LATE;
    const { accountId, token } = await app.accountWithKey(1000);
    const other = (await app.services.keys.createKey(accountId, 'other tool')).token;
    await setLimit(token, 50);

    const responses = await Promise.all(Array.from({ length: 200 }, () => scrape(token)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 402)).toHaveLength(150);
    const refusal = responses.find((r) => r.status === 402)!;
    expect(refusal.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refusal.json()).toMatchObject({ code: 'credits.key_limit_reached', limit: 50, spent: 50, required: 1, resets_at: DEC_1 });

    expect(await app.services.credits.spendableBalance(accountId)).toBe(950);
    expect(await ledgerSum(app.services.db, accountId)).toBe(950);
    expect(await counter(token, '2026-11')).toBe(50);

    expect((await scrape(other)).status).toBe(200);
    const spend = await app.services.credits.keySpend(accountId);
    expect(spend.get(await keyIdOf(token))).toBe(50);
    expect(spend.get(await keyIdOf(other))).toBe(1);
  });

  it('the limit resets at the first instant of the next UTC month (pinned clock)', async () => {
    now = NOV_30_LATE;
    const { token } = await app.accountWithKey(100);
    await setLimit(token, 2);
    expect((await scrape(token)).status).toBe(200);
    expect((await scrape(token)).status).toBe(200);
    now = Date.parse(DEC_1) - 1;
    expect(await (await scrape(token)).json()).toMatchObject({ code: 'credits.key_limit_reached', resets_at: DEC_1 });

    now = Date.parse(DEC_1);
    expect((await scrape(token)).status).toBe(200);
    expect(await counter(token, '2026-11')).toBe(2);
    expect(await counter(token, '2026-12')).toBe(1);
  });

  it('a failed scrape releases its whole hold from the key’s spend, and a partly unavailable one the unused part', async () => {
    now = NOV_30_LATE;
    const { token } = await app.accountWithKey(100);
    await setLimit(token, 2);
    app.reddit.failAlways(503);
    try {
      expect((await scrape(token, { subreddits: ['r/node'], keywords: ['node', 'limits'] })).status).toBeGreaterThanOrEqual(502);
    } finally {
      app.reddit.failAlways(null);
    }
    expect(await counter(token, '2026-11')).toBe(0);

    const partly = await scrape(token, { subreddits: ['r/node', 'r/doesnotexist'], keywords: ['node'] });
    expect((await partly.json()).credits.charged).toBe(1);
    expect(await counter(token, '2026-11')).toBe(1);
    expect((await scrape(token)).status).toBe(200);
    expect((await scrape(token)).status).toBe(402);
  });

  it('a refunded generation gives the key its budget back', async () => {
    now = NOV_30_LATE;
    const { token, accountId } = await app.accountWithKey(100);
    await setLimit(token, PRICES.generate);
    app.llm.failNext(500);
    expect((await generate(token)).status).toBe(502);
    expect(await counter(token, '2026-11')).toBe(0);
    expect((await generate(token)).status).toBe(200);
    expect(await (await generate(token)).json()).toMatchObject({ code: 'credits.key_limit_reached', limit: PRICES.generate, spent: PRICES.generate });
    expect(await ledgerSum(app.services.db, accountId)).toBe(100 - PRICES.generate);
  });

  it('an account that cannot pay gets credits.insufficient even when its key is also at its limit', async () => {
    now = NOV_30_LATE;
    const { token } = await app.accountWithKey(PRICES.generate);
    await setLimit(token, PRICES.generate);
    expect((await generate(token)).status).toBe(200);
    expect(await (await generate(token)).json()).toMatchObject({ status: 402, code: 'credits.insufficient' });
  });

  it('a hold settled or a charge refunded in a later month gives credits back to the month they were counted in', async () => {
    const { token, accountId } = await app.accountWithKey(100);
    const keyId = await keyIdOf(token);
    const heldAt = '2026-11-30T23:59:00.000Z';
    await transaction(app.services.db, (trx) => creditsIn(trx).hold({ accountId, keyId, amount: 4, at: heldAt }));
    await transaction(app.services.db, (trx) => creditsIn(trx).charge({ accountId, keyId, price: 3, at: heldAt }));
    await transaction(app.services.db, (trx) => creditsIn(trx).charge({ accountId, keyId, price: 2, at: DEC_1 }));
    expect(await counter(token, '2026-11')).toBe(7);

    await transaction(app.services.db, async (trx) => {
      await creditsIn(trx).settleHold({ accountId, keyId, held: 4, charge: 1, heldAt, at: DEC_1 });
      await creditsIn(trx).refund({ accountId, keyId, amount: 3, chargedAt: heldAt, at: DEC_1 });
    });
    expect(await counter(token, '2026-11')).toBe(1);
    expect(await counter(token, '2026-12')).toBe(2);
    expect(await ledgerSum(app.services.db, accountId)).toBe(100 - 1 - 2);
  });
});
