import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { eventually } from '../support/receiver.ts';

/**
 * A synchronous scrape whose run outlives JOB_LEASE_SECONDS is taken over by a second run;
 * the first one's settlement is then refused. The waiting request must not take that refused run's end
 * for the scrape's: it answers 200 only for a completed scrape, else 202 with the Location to poll.
 */
describe.each(engines)('a sync scrape whose run outlives its lease on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { JOB_LEASE_SECONDS: '1', SCRAPE_SYNC_WAIT_MS: '6000' } });
    app.reddit.posts.push({ id: 'l1', subreddit: 'node', title: 'lease outlived', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  it('never answers 200 with a scrape still running: 200 completed, or 202 with its Location', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    app.reddit.delayMs = 1200;
    try {
      const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['lease'] } });
      const scrape = await response.json();
      if (response.status === 200) expect(scrape.status).toBe('completed');
      else {
        expect(response.status).toBe(202);
        expect(response.headers.get('location')).toBe(`/api/v1/scrapes/${scrape.id}`);
        expect(scrape.status).toMatch(/queued|running/);
      }
      const done = await eventually(async () => {
        const row = await app.services.db.selectFrom('scrapes').selectAll().where('id', '=', scrape.id).executeTakeFirst();
        return row?.status === 'completed' ? row : undefined;
      }, 30_000);
      expect(done.charged).toBe(1);
    } finally {
      app.reddit.delayMs = 0;
    }
    expect(await app.services.credits.spendableBalance(accountId)).toBe(9);
    expect(await ledgerSum(app.services.db, accountId)).toBe(9);
  });
});
