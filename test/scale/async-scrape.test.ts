import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { eventually } from '../support/receiver.ts';

const body = { subreddits: ['r/node', 'r/deno'], keywords: ['async'] };

describe.each(engines)('async scrapes with credit holds on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SCRAPE_SYNC_WAIT_MS: '300' } });
    app.reddit.posts.push(
      { id: 'n1', subreddit: 'node', title: 'async hooks', created_utc: Math.floor(Date.now() / 1000) },
      { id: 'd1', subreddit: 'deno', title: 'async ops', created_utc: Math.floor(Date.now() / 1000) },
    );
  });
  afterAll(() => app.close());

  it('Prefer: respond-async answers 202 with Location and the queued scrape, which later completes', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/scrape', { token, body, headers: { prefer: 'respond-async' } });
    expect(response.status).toBe(202);
    expect(response.headers.get('preference-applied')).toBe('respond-async');
    const accepted = await response.json();
    expect(response.headers.get('location')).toBe(`/api/v1/scrapes/${accepted.id}`);
    expect(['queued', 'running', 'completed']).toContain(accepted.status);

    const done = await eventually(async () => {
      const scrape = await (await app.api('GET', `/api/v1/scrapes/${accepted.id}`, { token })).json();
      return scrape.status === 'completed' ? scrape : undefined;
    });
    expect(done.results.map((r: { id: string }) => r.id).sort()).toEqual(['t3_d1', 't3_n1']);
    expect(done.credits.charged).toBe(2);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(8);
    expect(await ledgerSum(app.services.db, accountId)).toBe(8);
  });

  it('a scrape still running after SCRAPE_SYNC_WAIT_MS answers 202; meanwhile its price is held, and 402 counts the hold', async () => {
    const { token, accountId } = await app.accountWithKey(3);
    app.reddit.delayMs = 1500;
    try {
      const response = await app.api('POST', '/api/v1/scrape', { token, body });
      expect(response.status).toBe(202);
      const accepted = await response.json();
      expect(accepted.status).toMatch(/queued|running/);
      expect(accepted.credits).toEqual({ charged: 0, balance: 1 });
      expect(await (await app.api('GET', '/api/v1/balance', { token })).json()).toEqual({ balance: 1, owed: 0 });
      expect(await ledgerSum(app.services.db, accountId)).toBe(3);

      const second = await app.api('POST', '/api/v1/scrape', { token, body });
      expect(second.status).toBe(402);
      expect(await second.json()).toMatchObject({ balance: 1, required: 2 });

      await eventually(async () => (await ledgerSum(app.services.db, accountId)) === 1);
      expect(await app.services.credits.spendableBalance(accountId)).toBe(1);
    } finally {
      app.reddit.delayMs = 0;
    }
  });

  it('a failed scrape releases its hold: nothing is charged', async () => {
    const { token, accountId } = await app.accountWithKey(4);
    app.reddit.failAlways(502);
    try {
      const response = await app.api('POST', '/api/v1/scrape', { token, body, headers: { prefer: 'respond-async' } });
      expect(response.status).toBe(202);
      const { id } = await response.json();
      const failed = await eventually(async () => {
        const scrape = await (await app.api('GET', `/api/v1/scrapes/${id}`, { token })).json();
        return scrape.status === 'failed' ? scrape : undefined;
      });
      expect(failed.credits.charged).toBe(0);
      expect(failed.error).toEqual(expect.any(String));
      expect(await app.services.credits.spendableBalance(accountId)).toBe(4);
      expect(await ledgerSum(app.services.db, accountId)).toBe(4);
    } finally {
      app.reddit.failAlways(null);
    }
  });
});
