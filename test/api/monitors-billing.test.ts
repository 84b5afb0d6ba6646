import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { DashboardClient } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { createMonitor, cycle, startMonitorsApp, storedMatches, type PinnedClock } from '../support/monitors.ts';

describe.each(engines)('what monitors charge on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    ({ app, clock } = await startMonitorsApp(engine));
    app.reddit.subreddits.set('billing', 'public');
  });
  afterAll(() => app.close());

  /** `count` new posts mentioning `word` in r/billing, then one cycle. */
  async function postsThenCycle(word: string, count: number) {
    clock.advance(10);
    const posts = Array.from({ length: count }, (_, i) =>
      app.reddit.addPost({ subreddit: 'billing', title: `${word} number ${i}`, created_utc: clock.seconds() - count + i }),
    );
    clock.advance(10);
    await cycle(app);
    return posts;
  }
  const monitorRow = (id: string) => app.database.db.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('a monitor at zero credits pauses with insufficient_credits and stores nothing unpaid', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    const monitor = await createMonitor(app, token, { subreddits: ['r/billing'], keywords: ['zebra'] });
    await cycle(app);
    await postsThenCycle('zebra', 3);
    expect(await storedMatches(app, monitor.id)).toEqual([]);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'paused', paused_reason: 'insufficient_credits' });
    const shown = await (await app.api('GET', `/api/v1/monitors/${monitor.id}`, { token })).json();
    expect(shown).toMatchObject({ status: 'paused', paused_reason: 'insufficient_credits' });
    expect(await ledgerSum(app.services.db, accountId)).toBe(0);
  });

  it('a balance of 2 pays for the 2 oldest of 5 matches in one ledger row naming the monitor, then the monitor pauses', async () => {
    const { accountId, token } = await app.accountWithKey(2);
    const monitor = await createMonitor(app, token, { subreddits: ['r/billing'], keywords: ['yak'] });
    await cycle(app);
    const posts = await postsThenCycle('yak', 5);
    expect((await storedMatches(app, monitor.id)).map((r) => r.reddit_id)).toEqual([`t3_${posts[0]!.id}`, `t3_${posts[1]!.id}`]);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'paused', paused_reason: 'insufficient_credits' });
    const charges = await app.database.db.selectFrom('credit_ledger').selectAll().where('account_id', '=', accountId).where('kind', '=', 'charge').execute();
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amount: -2, monitor_id: monitor.id, match_count: 2, key_id: null });
    expect(await app.services.credits.spendableBalance(accountId)).toBe(0);
    expect(await ledgerSum(app.services.db, accountId)).toBe(0);

    // Topped up: the next cycle resumes it by itself, and what it left out comes first (monitors-resume.test.ts).
    await app.services.credits.grant(accountId, 10);
    const fresh = await postsThenCycle('yak', 1);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'active', paused_reason: null, resume_from: null });
    expect((await storedMatches(app, monitor.id)).map((r) => r.reddit_id)).toEqual([...posts, ...fresh].map((p) => `t3_${p.id}`));
    expect(await ledgerSum(app.services.db, accountId)).toBe(6);
  });

  it('the daily cap stores up to the cap, pauses until the next UTC midnight, then resumes by itself', async () => {
    const { accountId, token } = await app.accountWithKey(100);
    const monitor = await createMonitor(app, token, { subreddits: ['r/billing'], keywords: ['ibex'], max_matches_per_day: 3 });
    await cycle(app);
    await postsThenCycle('ibex', 2);
    await postsThenCycle('ibex', 2);
    expect(await storedMatches(app, monitor.id)).toHaveLength(3);
    const paused = await monitorRow(monitor.id);
    expect(paused).toMatchObject({ status: 'paused', paused_reason: 'daily_cap' });
    expect(paused.paused_until).toMatch(/T00:00:00\.000Z$/);

    clock.set(paused.paused_until!);
    clock.advance(5);
    const next = await postsThenCycle('ibex', 1);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'active', paused_reason: null });
    expect((await storedMatches(app, monitor.id)).map((r) => r.reddit_id).at(-1)).toBe(`t3_${next[0]!.id}`);
    expect(await ledgerSum(app.services.db, accountId)).toBe(96);
  });

  it('a monitor\'s charges say the monitor spent them, wherever it was created (the dashboard, the API): no one called', async () => {
    const { accountId, token, email } = await app.accountWithKey(10);
    await app.services.accounts.setPassword(email, 'correct horse battery');
    const browser = new DashboardClient(app.url);
    await browser.logIn(email, 'correct horse battery');
    const form = { name: 'From the dashboard', subreddits: 'billing', keywords: 'okapi', sources: 'posts' };
    expect((await browser.submit('/dashboard/monitors', '/dashboard/monitors', form)).status).toBe(303);
    await createMonitor(app, token, { name: 'From the API', subreddits: ['r/billing'], keywords: ['okapi'] });
    await cycle(app);
    await postsThenCycle('okapi', 1);

    const usage = await (await app.api('GET', '/api/v1/usage', { token })).json();
    const charges = usage.data.filter((e: { type: string }) => e.type === 'charge').map((e: { description: string; via: string }) => [e.description, e.via]);
    expect(charges.sort()).toEqual([
      ['Monitor “From the API”: 1 match', 'monitor'],
      ['Monitor “From the dashboard”: 1 match', 'monitor'],
    ]);
    expect((await browser.get('/dashboard/credits')).body).not.toMatch(/<td data-label="Via">(Dashboard|API)<\/td>/);
    expect((await browser.get('/dashboard/credits')).body).toContain('<td data-label="Via">Monitor</td>');
    expect(await ledgerSum(app.services.db, accountId)).toBe(8);
  });

  it('PRICE_MONITOR_MATCH sets the price per match', async () => {
    const priced = await startMonitorsApp(engine, { env: { PRICE_MONITOR_MATCH: '3' } });
    try {
      priced.app.reddit.subreddits.set('billing', 'public');
      const { accountId, token } = await priced.app.accountWithKey(10);
      await createMonitor(priced.app, token, { subreddits: ['r/billing'], keywords: ['gnu'] });
      await cycle(priced.app);
      priced.clock.advance(10);
      for (let i = 0; i < 2; i++) priced.app.reddit.addPost({ subreddit: 'billing', title: `gnu ${i}`, created_utc: priced.clock.seconds() });
      priced.clock.advance(10);
      await cycle(priced.app);
      expect(await priced.app.services.credits.spendableBalance(accountId)).toBe(4);
      expect(await ledgerSum(priced.app.services.db, accountId)).toBe(4);
    } finally {
      await priced.app.close();
    }
  });
});
