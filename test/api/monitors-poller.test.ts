import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { createMonitor, cycle, listingRequests, startMonitorsApp, storedMatches, type PinnedClock } from '../support/monitors.ts';

describe.each(engines)('the monitors poller on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    // One account holds the 30 monitors of the request-count test: more than the 25 an account may have by default.
    ({ app, clock } = await startMonitorsApp(engine, { env: { MONITOR_MAX_PER_ACCOUNT: '30' } }));
  });
  afterAll(() => app.close());

  it('every new matching post and comment is stored once, across cycles, and nothing older than the monitor', async () => {
    const { accountId, token } = await app.accountWithKey(100);
    for (const name of ['saas', 'startups']) app.reddit.subreddits.set(name, 'public');
    app.reddit.addPost({ subreddit: 'saas', title: 'an old churn story', created_utc: clock.seconds() - 60 });
    const monitor = await createMonitor(app, token, { subreddits: ['r/saas', 'r/startups'], keywords: ['churn'], sources: ['posts', 'comments'] });
    await cycle(app);

    clock.advance(30);
    const post = app.reddit.addPost({ subreddit: 'saas', title: 'How we cut churn', selftext: 'details', created_utc: clock.seconds() });
    app.reddit.addPost({ subreddit: 'saas', title: 'unrelated', created_utc: clock.seconds() });
    const comment = app.reddit.addComment({ subreddit: 'startups', body: 'Churn is the killer', link_title: 'Ask: metrics', created_utc: clock.seconds() + 1 });
    clock.advance(30);
    await cycle(app);
    clock.advance(60);
    const later = app.reddit.addComment({ subreddit: 'saas', body: 'our churn went down', created_utc: clock.seconds() });
    clock.advance(1);
    await cycle(app);
    await cycle(app);

    const rows = await storedMatches(app, monitor.id);
    expect(rows.map((r) => r.reddit_id)).toEqual([`t3_${post.id}`, `t1_${comment.id}`, `t1_${later.id}`]);
    expect(rows[1]).toMatchObject({ type: 'comment', subreddit: 'r/startups', title: 'Ask: metrics', body: 'Churn is the killer' });
    expect(JSON.parse(rows[0]!.matched_keywords)).toEqual(['churn']);
    expect(rows[0]!.permalink).toMatch(/^https:\/\/www\.reddit\.com\/r\/saas\/comments\//);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(97);
    expect(await ledgerSum(app.services.db, accountId)).toBe(97);
  });

  it('one request per source reads up to 100 subreddits, however many monitors and keywords watch them', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    const names = Array.from({ length: 100 }, (_, i) => `r/topic${i}`);
    for (const name of names) app.reddit.subreddits.set(name.slice(2), 'public');
    for (let i = 0; i < 30; i++) {
      await createMonitor(app, token, { name: `m${i}`, subreddits: names, keywords: [`kw${i}`, 'shared phrase'], sources: ['posts', 'comments'] });
    }
    await cycle(app);
    const before = listingRequests(app).length;
    clock.advance(60);
    await cycle(app);
    const made = listingRequests(app).slice(before);
    // The earlier tests' monitors watch 2 more subreddits: one more group per source.
    expect(made.length).toBeLessThanOrEqual(4);
    expect(made.some((r) => r.path.split('+').length === 100)).toBe(true);
    expect(made.every((r) => r.query.limit === '100' && r.query.raw_json === '1')).toBe(true);
    expect(await ledgerSum(app.services.db, accountId)).toBe(10);
  });
});
