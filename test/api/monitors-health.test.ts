import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { createMonitor, cycle, startMonitorsApp, storedMatches, type PinnedClock } from '../support/monitors.ts';

describe.each(engines)('a monitor’s health on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    // Two pages of 100 per group and source per cycle: a burst of 250 is more than one cycle reads.
    ({ app, clock } = await startMonitorsApp(engine, { env: { MONITOR_MAX_PAGES_PER_CYCLE: '2' } }));
  });
  afterAll(() => app.close());

  const health = async (token: string, id: string) =>
    ((await (await app.api('GET', `/api/v1/monitors/${id}`, { token })).json()) as { health: { status: string; subreddits: any[]; gaps: any[] } }).health;

  it('a burst beyond the per-cycle cap is recorded as a gap, and what was read is stored', async () => {
    app.reddit.subreddits.set('bursty', 'public');
    const { accountId, token } = await app.accountWithKey(1000);
    const monitor = await createMonitor(app, token, { subreddits: ['r/bursty'], keywords: ['launch'] });
    clock.advance(5);
    app.reddit.addPost({ subreddit: 'bursty', title: 'launch zero', created_utc: clock.seconds() });
    clock.advance(5);
    await cycle(app);
    const markAt = clock.seconds() - 5;
    for (let i = 0; i < 250; i++) app.reddit.addPost({ subreddit: 'bursty', title: `launch ${i}`, created_utc: clock.seconds() + i });
    clock.advance(300);
    const report = await cycle(app);
    expect(report).toMatchObject({ gaps: 1 });
    // The first cycle stored "launch zero"; this one read the newest 200.
    expect(await storedMatches(app, monitor.id)).toHaveLength(201);
    const { gaps } = await health(token, monitor.id);
    expect(gaps).toEqual([
      expect.objectContaining({ source: 'posts', subreddits: ['r/bursty'], from: new Date(markAt * 1000).toISOString(), to: new Date((markAt + 5 + 50) * 1000).toISOString() }),
    ]);
    expect(await ledgerSum(app.services.db, accountId)).toBe(1000 - 201);
  });

  it('Reddit answering 5xx, then 429, shows in health, and the next good read catches up without losing a thing', async () => {
    app.reddit.subreddits.set('flaky', 'public');
    const { accountId, token } = await app.accountWithKey(100);
    const monitor = await createMonitor(app, token, { subreddits: ['r/flaky'], keywords: ['outage'] });
    await cycle(app);
    clock.advance(10);
    const first = app.reddit.addPost({ subreddit: 'flaky', title: 'outage one', created_utc: clock.seconds() });
    clock.advance(10);
    app.reddit.failAlways(503);
    await cycle(app);
    app.reddit.failAlways(null);
    let flaky = (await health(token, monitor.id)).subreddits.find((s) => s.subreddit === 'r/flaky');
    expect(flaky.last_error).toEqual({ code: 'unavailable', at: clock.now().toISOString() });

    clock.advance(60);
    app.reddit.failAlways(429);
    await cycle(app);
    app.reddit.failAlways(null);
    flaky = (await health(token, monitor.id)).subreddits.find((s) => s.subreddit === 'r/flaky');
    expect(flaky.last_error).toMatchObject({ code: 'rate_limited' });
    expect(await storedMatches(app, monitor.id)).toEqual([]);

    clock.advance(60);
    const second = app.reddit.addPost({ subreddit: 'flaky', title: 'outage two', created_utc: clock.seconds() });
    clock.advance(1);
    await cycle(app);
    expect((await storedMatches(app, monitor.id)).map((r) => r.reddit_id)).toEqual([`t3_${first.id}`, `t3_${second.id}`]);
    flaky = (await health(token, monitor.id)).subreddits.find((s) => s.subreddit === 'r/flaky');
    expect(flaky).toMatchObject({ state: 'ok', last_read_at: clock.now().toISOString(), last_error: null });
    expect(await ledgerSum(app.services.db, accountId)).toBe(98);
  });

  it('a gated subreddit (403 {"reason":"gated"}) is shown as gated, not as quarantined', async () => {
    for (const name of ['aboveboard', 'behindgate']) app.reddit.subreddits.set(name, 'public');
    const { token } = await app.accountWithKey(100);
    const monitor = await createMonitor(app, token, { subreddits: ['r/aboveboard', 'r/behindgate'], keywords: ['pricing'] });
    await cycle(app);
    app.reddit.subreddits.set('behindgate', 'gated');
    clock.advance(11 * 60);
    await cycle(app);
    const { status, subreddits } = await health(token, monitor.id);
    expect(subreddits.find((s) => s.subreddit === 'r/behindgate')).toMatchObject({ state: 'gated', stale: false });
    expect(status).toBe('unavailable');
  });

  it('a subreddit that goes private is shown as private, not also stale, and the others are still read', async () => {
    for (const name of ['open', 'closing']) app.reddit.subreddits.set(name, 'public');
    const { accountId, token } = await app.accountWithKey(100);
    const monitor = await createMonitor(app, token, { subreddits: ['r/open', 'r/closing'], keywords: ['pricing'] });
    await cycle(app);
    app.reddit.subreddits.set('closing', 'private');
    clock.advance(11 * 60);
    const post = app.reddit.addPost({ subreddit: 'open', title: 'pricing page', created_utc: clock.seconds() });
    clock.advance(1);
    await cycle(app);
    const { status, subreddits } = await health(token, monitor.id);
    // Reddit refuses it: that is its news, and the owner's to act on; unread is what refused means.
    expect(subreddits.find((s) => s.subreddit === 'r/closing')).toMatchObject({ state: 'private', stale: false });
    expect(status).toBe('unavailable');
    expect(subreddits.find((s) => s.subreddit === 'r/open')).toMatchObject({ state: 'ok', last_read_at: clock.now().toISOString() });
    expect((await storedMatches(app, monitor.id)).map((r) => r.reddit_id)).toEqual([`t3_${post.id}`]);
    expect(await ledgerSum(app.services.db, accountId)).toBe(99);
  });
});
