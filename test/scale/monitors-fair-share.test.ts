import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { createMonitor, cycle, listingRequests, startMonitorsApp, storedMatches, type PinnedClock } from '../support/monitors.ts';

/*
 * One OAuth app's budget is shared by every account (../shared/reference/reddit-2026.md). Here it is
 * 20 requests a minute, so a cycle may make 15 (a quarter is left to one-off scrapes), while one
 * account watches 3,000 subreddits: 60 requests' worth of listings and 30 of look-ups.
 */
describe.each(engines)('one account cannot blind the others, on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    ({ app, clock } = await startMonitorsApp(engine, {
      env: { REDDIT_REQUESTS_PER_MINUTE: '20', MONITOR_MAX_PER_ACCOUNT: '100', MONITOR_MAX_SUBREDDITS_PER_ACCOUNT: '100000' },
      waitsMoveClock: true,
    }));
  });
  afterAll(() => app.close());

  it('another account’s monitor still detects within two intervals and its scrape answers without waiting, while the greedy one’s reads rotate', async () => {
    const greedy = await app.accountWithKey(1000);
    for (let m = 0; m < 30; m++) {
      const subreddits = Array.from({ length: 100 }, (_, i) => `r/madeup${m}x${i}`);
      for (const name of subreddits) app.reddit.subreddits.set(name.slice(2), 'public');
      await createMonitor(app, greedy.token, { name: `greedy ${m}`, subreddits, keywords: ['anything'], sources: ['posts', 'comments'] });
    }
    const normal = await app.accountWithKey(1000);
    app.reddit.subreddits.set('node', 'public');
    const monitor = await createMonitor(app, normal.token, { subreddits: ['r/node'], keywords: ['deno'], sources: ['posts', 'comments'] });
    await cycle(app);

    const lookups = () => app.reddit.requests.filter((r) => r.path === '/api/info').length;
    for (let round = 0; round < 5; round++) {
      clock.advance(30);
      const post = app.reddit.addPost({ subreddit: 'node', title: `deno ${round}`, created_utc: clock.seconds() });
      clock.advance(30);
      const [listingsBefore, lookupsBefore] = [listingRequests(app).length, lookups()];
      const report = await cycle(app);
      expect(listingRequests(app).length - listingsBefore + lookups() - lookupsBefore).toBeLessThanOrEqual(15);
      expect(report?.deferred).toBeGreaterThan(0);
      const stored = await storedMatches(app, monitor.id);
      expect(stored.map((row) => row.reddit_id)).toContain(`t3_${post.id}`);
      expect(Date.parse(stored.at(-1)!.found_at) - Date.parse(stored.at(-1)!.created_at)).toBeLessThanOrEqual(2 * 60_000);

      // The scrape runs as the worker runs it (this suite has no background worker: the test runs the cycles).
      const at = clock.now().getTime();
      const accepted = await app.api('POST', '/api/v1/scrape', { token: normal.token, body: { subreddits: ['r/node'], keywords: ['deno'] }, headers: { prefer: 'respond-async' } });
      expect(accepted.status).toBe(202);
      const { id } = (await accepted.json()) as { id: string };
      await app.services.scrapeRunner.run(id);
      const scrape = await (await app.api('GET', `/api/v1/scrapes/${id}`, { token: normal.token })).json();
      expect(scrape).toMatchObject({ status: 'completed' });
      expect(scrape.results.map((r: { id: string }) => r.id)).toContain(`t3_${post.id}`);
      expect(clock.now().getTime()).toBe(at); // it never waited for the budget
    }
    // The greedy account's subreddits are read in turn, least recently read first: more than one cycle's worth of them was read.
    const read = await app.database.db.selectFrom('monitor_cursors').select('subreddit').where('subreddit', 'like', 'madeup%').where('read_at', 'is not', null).execute();
    expect(read.length).toBeGreaterThan(14 * 100);
  });
});

describe.each(engines)('a group cut short by the cycle’s share, on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    // 4 requests a minute: a cycle may make 3, less a look-up when one is due.
    ({ app, clock } = await startMonitorsApp(engine, { env: { REDDIT_REQUESTS_PER_MINUTE: '4' }, waitsMoveClock: true }));
  });
  afterAll(() => app.close());

  it('delivers what it read at once, records no gap the first time, and records the gap and moves on when cut again', async () => {
    const { token } = await app.accountWithKey(10_000);
    app.reddit.subreddits.set('busy', 'public');
    const monitor = await createMonitor(app, token, { subreddits: ['r/busy'], keywords: ['word'] });
    await cycle(app);
    clock.advance(60);
    await cycle(app); // read well: the mark is set
    clock.advance(30);
    for (let i = 0; i < 600; i++) app.reddit.addPost({ subreddit: 'busy', title: `word ${i}`, created_utc: clock.seconds() });
    clock.advance(30);
    const first = await cycle(app);
    expect(first).toMatchObject({ deferred: 1, gaps: 0 });
    const afterFirst = (await storedMatches(app, monitor.id)).length;
    expect(afterFirst).toBeGreaterThanOrEqual(200);
    clock.advance(60);
    const second = await cycle(app);
    expect(second?.gaps).toBe(1);
    const health = await (await app.api('GET', `/api/v1/monitors/${monitor.id}`, { token })).json();
    expect(health.health.gaps).toHaveLength(1);
    expect((await storedMatches(app, monitor.id)).length).toBe(afterFirst);
  });
});
