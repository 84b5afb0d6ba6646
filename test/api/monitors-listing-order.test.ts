import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { capturedLog, createMonitor, cycle, startMonitorsApp, storedMatches, type PinnedClock } from '../support/monitors.ts';

/*
 * Reddit lists things by position, not by id (../shared/reference/reddit-2026.md: asyncpraw's recorded
 * comment streams list a lower id above a higher one). The fake lists `listedLate` items that way.
 */
describe.each(engines)('monitors on listings that are not in id order, on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  const log = capturedLog();
  beforeAll(async () => {
    ({ app, clock } = await startMonitorsApp(engine, { overrides: { log: log.log } }));
  });
  afterAll(() => app.close());

  it('a comment listed above ones already read, with a lower id, is delivered once, and so is every other', async () => {
    const { accountId, token } = await app.accountWithKey(1000);
    app.reddit.subreddits.set('askreddit', 'public');
    const monitor = await createMonitor(app, token, { subreddits: ['r/AskReddit'], keywords: ['tool'], sources: ['comments'] });
    await cycle(app);
    const expected: string[] = [];
    for (let round = 0; round < 6; round++) {
      clock.advance(20);
      // Written now and read by the next cycle…
      const first = app.reddit.addComment({ subreddit: 'AskReddit', body: `which tool ${round}a`, created_utc: clock.seconds() });
      const noise = app.reddit.addComment({ subreddit: 'AskReddit', body: 'nothing to see', created_utc: clock.seconds() });
      // …and one Reddit lists above them with a lower id, in the same second.
      const late = app.reddit.addComment({ subreddit: 'AskReddit', body: `a tool ${round}b`, created_utc: clock.seconds(), listedLate: true });
      expect(late.id < noise.id || late.id.length < noise.id.length).toBe(true);
      expected.push(`t1_${first.id}`, `t1_${late.id}`);
      clock.advance(10);
      await cycle(app);
      // One more, listed late after that read: its id is below everything read so far.
      const after = app.reddit.addComment({ subreddit: 'AskReddit', body: `tool after ${round}`, created_utc: clock.seconds() - 9, listedLate: true });
      expected.push(`t1_${after.id}`);
    }
    clock.advance(30);
    await cycle(app);
    await cycle(app);

    const rows = await storedMatches(app, monitor.id);
    expect(rows.map((row) => row.reddit_id).sort()).toEqual([...expected].sort());
    expect(new Set(rows.map((row) => row.reddit_id)).size).toBe(rows.length);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(1000 - expected.length);
    expect(await ledgerSum(app.services.db, accountId)).toBe(1000 - expected.length);
  });

  it('no item with an absurd id, a date in the future or another subreddit moves the mark: later matches still arrive, and the odd ones are counted and logged', async () => {
    const { token } = await app.accountWithKey(100);
    app.reddit.subreddits.set('node', 'public');
    const monitor = await createMonitor(app, token, { subreddits: ['r/node'], keywords: ['deno'], sources: ['comments'] });
    await cycle(app);
    clock.advance(10);
    app.reddit.addComment({ subreddit: 'node', body: 'deno from the future', created_utc: clock.seconds() + 10 * 365 * 86_400 });
    // Listed in r/node's listing but saying it is r/rust's (a broken or hostile upstream).
    app.reddit.addComment({ subreddit: 'node', body: 'deno elsewhere', created_utc: clock.seconds() }).raw = { subreddit: 'rust', subreddit_name_prefixed: 'r/rust' };
    app.reddit.addComment({ subreddit: 'node', body: 'deno with an absurd id', created_utc: clock.seconds() }).id = 'zzzzzzzzzzzz';
    clock.advance(10);
    const report = await cycle(app);
    expect(report?.ignored).toBe(2);
    expect(log.warnings().some((line) => /cannot be right/.test(line.msg) && line.ignored === 2)).toBe(true);

    clock.advance(30);
    const later = app.reddit.addComment({ subreddit: 'node', body: 'deno 2 is out', created_utc: clock.seconds() });
    clock.advance(10);
    await cycle(app);
    const ids = (await storedMatches(app, monitor.id)).map((row) => row.reddit_id);
    expect(ids).toEqual(['t1_zzzzzzzzzzzz', `t1_${later.id}`]);
    const health = await (await app.api('GET', `/api/v1/monitors/${monitor.id}`, { token })).json();
    expect(health.health.gaps).toEqual([]);
  });
});
