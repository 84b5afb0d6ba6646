import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { startSubpilot } from '../support/processes.ts';
import { eventually } from '../support/receiver.ts';

describe.each(engines)('a worker killed mid-scrape loses no credit on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    // This process serves HTTP only; the scrape is run by a `subpilot worker` child.
    app = await startTestApp(engine, { worker: false, env: { JOB_LEASE_SECONDS: '2' } });
    app.reddit.posts.push({ id: 'k1', subreddit: 'node', title: 'x marks', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  const scrapeOf = (accountId: string) =>
    app.database.db.selectFrom('scrapes').selectAll().where('account_id', '=', accountId).executeTakeFirst();

  it('kill -9 during the Reddit call: after the lease another worker completes the scrape, charged exactly once', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    app.reddit.delayMs = 60_000;
    const { child } = await startSubpilot(['worker'], {
      ...app.database.env,
      JOB_LEASE_SECONDS: '2',
      REDDIT_CLIENT_ID: app.reddit.clientId,
      REDDIT_CLIENT_SECRET: app.reddit.clientSecret,
      REDDIT_API_URL: app.reddit.url,
      REDDIT_AUTH_URL: app.reddit.url,
    });
    try {
      const response = await app.api('POST', '/api/v1/scrape', {
        token,
        body: { subreddits: ['r/node', 'r/deno'], keywords: ['x'] },
        headers: { prefer: 'respond-async' },
      });
      expect(response.status).toBe(202);
      await eventually(async () => (await scrapeOf(accountId))?.status === 'running', 30_000);
      // Held, not yet charged: the spendable balance is down, the ledger untouched.
      expect(await app.services.credits.spendableBalance(accountId)).toBe(8);
      expect(await ledgerSum(app.services.db, accountId)).toBe(10);
      child.kill('SIGKILL');
    } finally {
      child.kill('SIGKILL');
      app.reddit.delayMs = 0;
    }

    const stop = await app.services.startWorker();
    try {
      const scrape = await eventually(async () => {
        const row = await scrapeOf(accountId);
        return row?.status === 'completed' ? row : undefined;
      }, 30_000);
      // r/deno does not exist on the fake Reddit: its pair is not charged.
      expect(scrape).toMatchObject({ charged: 1, attempts: 2 });
      expect(await app.services.credits.spendableBalance(accountId)).toBe(9);
      expect(await ledgerSum(app.services.db, accountId)).toBe(9);
      const charges = await app.database.db
        .selectFrom('credit_ledger')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('kind', '=', 'charge')
        .execute();
      expect(charges).toHaveLength(1);
    } finally {
      stop();
    }
  });
});
