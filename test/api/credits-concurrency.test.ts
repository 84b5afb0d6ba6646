import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';

describe.each(engines)('money-grade credits under concurrency on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.posts.push({ id: 'p1', subreddit: 'node', title: 'node', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  it('200 simultaneous scrapes from 4 keys of an account that can pay for 50: exactly 50 succeed, the rest 402', async () => {
    const { accountId, token } = await app.accountWithKey(50);
    const tokens = [token];
    for (let i = 0; i < 3; i++) tokens.push((await app.services.keys.createKey(accountId, `tool-${i}`)).token);

    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        app.api('POST', '/api/v1/scrape', {
          token: tokens[i % tokens.length],
          body: { subreddits: ['r/node'], keywords: ['node'] },
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 402)).toHaveLength(150);

    expect(await app.services.credits.spendableBalance(accountId)).toBe(0);
    expect(await ledgerSum(app.services.db, accountId)).toBe(0);
    const charges = await app.database.db
      .selectFrom('credit_ledger')
      .select(['amount', 'balance_after'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .execute();
    expect(charges).toHaveLength(50);
    // Every balance from 49 down to 0 appears once: no two charges saw the same balance.
    expect(charges.map((c) => c.balance_after).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});
