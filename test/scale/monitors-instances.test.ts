import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/app/container.ts';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { createMonitor, cycle, listingRequests, startMonitorsApp, type PinnedClock } from '../support/monitors.ts';

describe.each(engines)('several pollers on one %s database', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let other: Services;
  beforeAll(async () => {
    ({ app, clock } = await startMonitorsApp(engine));
    // A second instance of the service on the same database, with its own poller.
    other = await createServices(app.services.config, { clock: clock.now, redditOptions: { sleep: () => Promise.resolve() } });
    app.reddit.subreddits.set('shared', 'public');
  });
  afterAll(async () => {
    await other.close();
    await app.close();
  });

  it('two instances never poll the same cycle: one reads, the other stands by until the lease runs out', async () => {
    const { accountId, token } = await app.accountWithKey(50);
    await createMonitor(app, token, { subreddits: ['r/shared'], keywords: ['lease'], sources: ['posts', 'comments'] });
    await cycle(app);
    clock.advance(10);
    app.reddit.addPost({ subreddit: 'shared', title: 'lease one', created_utc: clock.seconds() });
    clock.advance(10);
    const before = listingRequests(app).length;
    const reports = await Promise.all([cycle(app), other.monitorPoller.runCycle(), cycle(app), other.monitorPoller.runCycle()]);
    // The holder ran its two cycles; the other instance was refused both times.
    expect(reports.map((r) => r === null)).toEqual([false, true, false, true]);
    expect(listingRequests(app).length - before).toBe(4);

    // The holder stops polling (its process died): after the lease the other instance takes over.
    clock.advance(60);
    expect(await other.monitorPoller.runCycle()).toBeNull();
    clock.advance(2 * 60 + 6);
    expect(await other.monitorPoller.runCycle()).not.toBeNull();
    expect(await cycle(app)).toBeNull();

    const stored = await app.database.db.selectFrom('monitor_matches').select('reddit_id').where('account_id', '=', accountId).execute();
    expect(stored).toHaveLength(1);
    expect(await ledgerSum(app.services.db, accountId)).toBe(49);
  });

  it('a poller whose lease passed to another instance mid-cycle stores and charges nothing; the new holder stores it once', async () => {
    const { accountId, token } = await app.accountWithKey(50);
    app.reddit.subreddits.set('handover', 'public');
    const monitor = await createMonitor(app, token, { subreddits: ['r/handover'], keywords: ['handover'] });
    await app.database.db.deleteFrom('poller_leases').execute(); // the other instance of the test above let go
    expect(await cycle(app)).not.toBeNull();
    clock.advance(10);
    app.reddit.addPost({ subreddit: 'handover', title: 'handover one', created_utc: clock.seconds() });
    clock.advance(10);
    // While the holder waits for Reddit, another instance takes the lease (the holder was presumed dead).
    app.reddit.delayMs = 300;
    const slow = cycle(app);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await app.database.db.updateTable('poller_leases').set({ holder: 'another-instance', expires_at: clock.now().getTime() + 60_000 }).execute();
    expect(await slow).not.toBeNull();
    app.reddit.delayMs = 0;
    const stored = () => app.database.db.selectFrom('monitor_matches').select('reddit_id').where('monitor_id', '=', monitor.id).execute();
    expect(await stored()).toEqual([]);
    expect(await ledgerSum(app.services.db, accountId)).toBe(50);

    clock.advance(61);
    await cycle(app);
    expect(await stored()).toHaveLength(1);
    expect(await ledgerSum(app.services.db, accountId)).toBe(49);
  });
});
