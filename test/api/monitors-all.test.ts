import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/container.ts';
import type { TestApp } from '../support/app.ts';
import { startTestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import type { FirehoseItem, FirehoseOptions } from '../support/fake-reddit-firehose.ts';
import { ledgerSum } from '../support/ledger.ts';
import { createMonitor, cycle, storedMatches, type PinnedClock } from '../support/monitors.ts';
import { cheapPasswords } from '../support/passwords.ts';
import { fullnameOf, idNumber, runStream, startFirehoseApp, streamPositions } from '../support/stream.ts';

/**
 * Monitors over all of Reddit (issue 45): served by the site-wide stream alone, every subreddit but the
 * excluded, never a listing read by the poller for them; the preview of a rule equals what a monitor
 * with that rule matched on the same items; and the refusals (mixed with names, no stream, too many a day).
 */
const SUBREDDITS = ['typescript', 'node', 'saas', 'gaming'];
/** A comment read by id has no post title (/api/info leaves link_title out): its own text is what matches. */
const text = (item: FirehoseItem) => ('body' in item.thing ? item.thing.body : `${item.thing.title} ${item.thing.selftext}`);

/** One firehose for every test, each test's own (`options` is changed as a test runs). */
const firehose = (engine: (typeof engines)[number], env: Record<string, string> = {}) =>
  startFirehoseApp(engine, env, { perSecond: 8, unavailable: 0.04, late: { share: 0.1, maxSeconds: 20 }, words: ['kysely', 'hello', 'world', 'postgres'], subreddits: SUBREDDITS });

describe.each(engines)('a monitor over all of Reddit on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let options: FirehoseOptions;
  // Each test on a firehose of its own: where the stream starts matters to what it reads.
  beforeEach(async () => {
    ({ app, clock, options } = await firehose(engine));
  });
  afterEach(() => app.close());

  it('gets every matching post and comment once, excluded subreddits never, across deleted and late ids, a restart and a second instance; the poller reads nothing for it', async () => {
    const { accountId, token } = await app.accountWithKey(100_000);
    const monitor = await createMonitor(app, token, { subreddits: ['https://www.reddit.com/r/all/'], exclude_subreddits: ['Gaming'], keywords: ['kysely'], sources: ['posts', 'comments'] });
    expect(monitor).toMatchObject({ subreddits: ['r/all'], exclude_subreddits: ['r/Gaming'], health: { status: 'ok', subreddits: [], stream: { state: 'reading', detail: null } } });
    clock.advance(5);
    await app.services.monitorStream!.runCycle(); // starts at the heads
    const start = await streamPositions(app);
    // Between the stream's cycles, the poller's: not one request to Reddit on the monitor's behalf.
    let pollerRequests = 0;
    const poll = async () => {
      const before = app.reddit.requests.length;
      await cycle(app);
      pollerRequests += app.reddit.requests.length - before;
    };
    await runStream(app.services, clock, 60, poll);

    const second = await createServices(app.services.config, { clock: clock.now, passwords: cheapPasswords, redditOptions: { sleep: () => Promise.resolve() } });
    try {
      expect(await second.monitorStream!.runCycle()).toBeNull();
      await app.services.monitorStream!.release(); // a restart: the second instance resumes where the first stopped
      await runStream(second, clock, 60, async () => {
        const before = app.reddit.requests.length;
        await second.monitorPoller.runCycle();
        pollerRequests += app.reddit.requests.length - before;
      });
      options.perSecond = 0;
      await runStream(second, clock, 90); // every id left out is asked once more after a minute
    } finally {
      await second.close();
    }
    expect(pollerRequests).toBe(0);
    expect(app.reddit.requests.filter((r) => /^\/r\/(?!all\/)[^/]+\/(new|comments)/.test(r.path))).toEqual([]);

    const made = app.reddit.firehose!.items().filter((item) => idNumber(item.id) > start.get(item.kind)!);
    const visible = made.filter((item) => item.visibleMs !== null && text(item).includes('kysely'));
    expect(visible.some((item) => item.visibleMs! > item.createdMs)).toBe(true);
    expect(visible.some((item) => item.thing.subreddit === 'gaming')).toBe(true); // the exclusion is put to the test
    const expected = visible.filter((item) => item.thing.subreddit !== 'gaming').map(fullnameOf).sort();
    const rows = await storedMatches(app, monitor.id);
    expect(rows.map((row) => row.reddit_id).sort()).toEqual(expected);
    expect(rows.filter((row) => row.subreddit.toLowerCase().endsWith('gaming'))).toEqual([]);
    expect(await ledgerSum(app.services.db, accountId)).toBe(100_000 - expected.length);
  });

  it("a title: rule gets every comment under a post whose title matches, with the title of a post the stream read or asked for, once; -title: never holds for a comment without one", async () => {
    const { accountId, token } = await app.accountWithKey(100_000);
    // Posts from before the stream starts: their comments' titles are asked of Reddit, not remembered.
    clock.advance(30);
    const titled = await createMonitor(app, token, { name: 'titled', subreddits: ['all'], query: 'title:kysely', sources: ['posts', 'comments'] });
    const untitledOnly = await createMonitor(app, token, { name: 'not', subreddits: ['all'], query: 'hello -title:kysely', sources: ['comments'] });
    await app.services.monitorStream!.runCycle(); // starts at the heads
    const start = await streamPositions(app);
    await runStream(app.services, clock, 90);
    options.perSecond = 0;
    await runStream(app.services, clock, 90); // deferred comments and ids left out are asked once more after a minute

    const items = app.reddit.firehose!.items();
    const byName = new Map(items.map((item) => [fullnameOf(item), item]));
    const postOf = (item: FirehoseItem) => byName.get(`t3_${(item.thing as { link_id: string }).link_id}`);
    const walked = items.filter((item) => idNumber(item.id) > start.get(item.kind)! && item.visibleMs !== null);
    const titleOf = (item: FirehoseItem) => (item.kind === 't3' ? (item.thing as { title: string }).title : postOf(item)?.visibleMs != null ? (postOf(item)!.thing as { title: string }).title : null);
    const expected = walked.filter((item) => titleOf(item)?.includes('kysely')).map(fullnameOf).sort();
    expect(expected.filter((n) => n.startsWith('t1_')).length).toBeGreaterThan(5);
    expect((await storedMatches(app, titled.id)).map((row) => row.reddit_id).sort()).toEqual(expected);
    // Some comments were under posts from before the start: the stream asked for those posts by id.
    const older = walked.filter((item) => item.kind === 't1' && postOf(item) && idNumber(postOf(item)!.id) <= start.get('t3')!);
    expect(older.length).toBeGreaterThan(0);
    const asked = app.reddit.requests.filter((r) => r.path.startsWith('/api/info')).flatMap((r) => (r.query.id ?? '').split(','));
    expect(asked).toContain(`t3_${postOf(older[0]!)!.id}`);
    // `hello -title:kysely` on comments: only those whose post's title was found and lacks the word.
    const notTitled = walked.filter((item) => item.kind === 't1' && text(item).includes('hello') && titleOf(item) !== null && !titleOf(item)!.includes('kysely'));
    expect((await storedMatches(app, untitledOnly.id)).map((row) => row.reddit_id).sort()).toEqual(notTitled.map(fullnameOf).sort());
    // Each match charged once, whatever the title cost to find: the balance is the ledger's sum.
    const balance = 100_000 - expected.length - notTitled.length;
    expect(await ledgerSum(app.services.db, accountId)).toBe(balance);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(balance);
  });
});

describe.each(engines)('the preview of a monitor on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    ({ app, clock } = await firehose(engine, { MONITOR_PREVIEW_DAILY_LIMIT: '50' }));
  });
  afterAll(() => app.close());

  it('counts what a monitor with the same rule then matched on the same items; above the daily limit it refuses unless confirmed', async () => {
    const { token } = await app.accountWithKey(100_000);
    const site = { subreddits: ['all'], exclude_subreddits: ['r/saas'], keywords: ['kysely'], sources: ['posts', 'comments'] };
    const named = { subreddits: ['r/TypeScript'], query: 'postgres -hello', sources: ['comments'] };
    const first = await createMonitor(app, token, site);
    // Nothing read yet: no numbers, the reason, and no refusal.
    expect(first.preview).toMatchObject({ matched_last_hour: null, estimated_per_day: null, daily_limit: 50, reason: expect.stringContaining('read nothing') });
    const firstNamed = await createMonitor(app, token, named);
    clock.advance(5);
    await app.services.monitorStream!.runCycle();
    await runStream(app.services, clock, 120);
    const matched = async (monitorId: string) => (await storedMatches(app, monitorId)).length;
    expect(await matched(first.id)).toBeGreaterThan(0);
    expect(await matched(firstNamed.id)).toBeGreaterThan(0);

    // The same rule again: the estimate is above 50 a day, so it is refused with words and the numbers.
    const refused = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'again', ...site } });
    expect(refused.status).toBe(422);
    const problem = await refused.json();
    expect(problem).toMatchObject({ code: 'monitors.volume_too_high', limit: 50, preview: { matched_last_hour: await matched(first.id) } });
    expect(problem.detail).toMatch(/about [\d,]+ a day.*Narrow the query.*exclude_subreddits.*confirm_volume: true/s);
    expect(problem.estimated_per_day).toBeGreaterThan(50);

    const accepted = await createMonitor(app, token, { ...site, confirm_volume: true });
    const ring = app.reddit.firehose!.items().filter((item) => item.visibleMs !== null);
    expect(accepted.preview).toMatchObject({ matched_last_hour: await matched(first.id), reason: null });
    const namedAgain = await createMonitor(app, token, { ...named, confirm_volume: true });
    expect(namedAgain.preview).toMatchObject({ matched_last_hour: await matched(firstNamed.id) });
    // In reach: the comments of r/typescript the stream read, nothing else.
    const inReach = (namedAgain.preview as { items_in_window: number }).items_in_window;
    expect(inReach).toBeLessThanOrEqual(ring.filter((item) => item.kind === 't1' && item.thing.subreddit === 'typescript').length);
    expect(inReach).toBeGreaterThan(await matched(firstNamed.id));

    // A change of the rule is previewed (and refused) the same way; a pause is never refused.
    // Narrowed to what nothing said lately, it needs no confirmation.
    const narrow = await app.api('PATCH', `/api/v1/monitors/${accepted.id}`, { token, body: { query: '"kysely launch"' } });
    expect(narrow.status).toBe(200);
    expect((await narrow.json()).preview).toMatchObject({ matched_last_hour: 0, estimated_per_day: 0 });
    const wide = await app.api('PATCH', `/api/v1/monitors/${accepted.id}`, { token, body: { query: null } });
    expect((await wide.json()).code).toBe('monitors.volume_too_high');
    expect((await app.api('PATCH', `/api/v1/monitors/${first.id}`, { token, body: { status: 'paused' } })).status).toBe(200);
  });
});

describe.each(engines)('monitors over all of Reddit refused on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false }); // no REDDIT_STREAM_SHARE: the stream is off
  });
  afterAll(() => app.close());

  it('"all" beside names, or among the excludes, is a 422 saying why', async () => {
    const { token } = await app.accountWithKey(0);
    const mixed = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'x', subreddits: ['r/node', 'r/all'], keywords: ['a'] } });
    expect(mixed.status).toBe(422);
    expect(await mixed.json()).toMatchObject({ code: 'request.invalid', errors: [{ path: '/subreddits', message: expect.stringContaining('must then be the only subreddit') }] });
    const excluded = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'x', subreddits: ['r/node'], exclude_subreddits: ['all'], keywords: ['a'] } });
    expect(excluded.status).toBe(422);
    expect((await excluded.json()).errors).toEqual([{ path: '/exclude_subreddits', message: expect.stringContaining('not all of Reddit') }]);
  });

  it('without a stream: creating or resuming one is a 503 monitors.stream_off naming REDDIT_STREAM_SHARE; one already active says it is not read', async () => {
    const { token } = await app.accountWithKey(0);
    const refused = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'x', subreddits: ['all'], keywords: ['a'] } });
    expect(refused.status).toBe(503);
    const problem = await refused.json();
    expect(problem.code).toBe('monitors.stream_off');
    expect(problem.detail).toContain('REDDIT_STREAM_SHARE');

    const monitor = await createMonitor(app, token, { subreddits: ['r/node'], keywords: ['a'] });
    await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { status: 'paused' } });
    // Paused, it may become one: nothing is promised until it resumes.
    const changed = await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { subreddits: ['all'], exclude_subreddits: ['r/gaming'] } });
    expect(changed.status).toBe(200);
    expect((await changed.json()).health.stream).toEqual({ state: 'off', detail: expect.stringContaining('not read: the stream is off') });
    const resumed = await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { status: 'active' } });
    expect(resumed.status).toBe(503);
    expect((await resumed.json()).code).toBe('monitors.stream_off');

    // Active from before the stream was switched off: its health says nothing reads it.
    await app.database.db.updateTable('monitors').set({ status: 'active', paused_reason: null }).where('id', '=', monitor.id).execute();
    const health = (await (await app.api('GET', `/api/v1/monitors/${monitor.id}`, { token })).json()).health;
    expect(health).toMatchObject({ status: 'stale', subreddits: [], stream: { state: 'off', detail: expect.stringMatching(/^not read: the stream is off/) } });
  });
});
