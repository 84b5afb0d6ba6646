/**
 * Issue 45: while the site-wide stream runs, a subreddit monitor is served from it with no listing
 * request, and its subreddit polling takes over when the stream stops, with nothing missed after the
 * stream's last covered point and no gap for the time it served. The firehose's items are in their
 * subreddits' listings too (fake-reddit-firehose.ts `listed`), so both readers see the same Reddit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import type { FirehoseItem, FirehoseOptions } from '../support/fake-reddit-firehose.ts';
import type { FakeComment } from '../support/fake-reddit.ts';
import { createMonitor, listingRequests, storedMatches, type PinnedClock } from '../support/monitors.ts';
import { fullnameOf, startFirehoseApp } from '../support/stream.ts';

const SUBREDDITS = ['typescript', 'node', 'saas'];
const ofSubreddits = (app: TestApp, names: string[]) => listingRequests(app).filter((r) => names.some((n) => r.path.split('/')[2]!.split('+').includes(n)));

describe.each(engines)('a subreddit monitor served by the site-wide stream on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let options: FirehoseOptions;
  beforeAll(async () => {
    ({ app, clock, options } = await startFirehoseApp(engine, {}, { subreddits: SUBREDDITS, perSecond: 4, late: { share: 0.3, maxSeconds: 20 }, words: ['kysely', 'hello', 'world', 'postgres'] }));
    // The fake knows a subreddit by its own posts; these exist through the firehose alone.
    for (const subreddit of SUBREDDITS) app.reddit.subreddits.set(subreddit, 'public');
  });
  afterAll(() => app.close());

  /** `seconds` of the test's time: a stream cycle every 10 s while `stream`, a poller cycle every 60 s. */
  async function run(seconds: number, stream: boolean) {
    for (let t = 10; t <= seconds; t += 10) {
      clock.advance(10);
      if (stream) await app.services.monitorStream!.runCycle();
      if (t % 60 === 0) await app.services.monitorPoller.runCycle();
    }
  }

  it('lists nothing for it while the stream runs, polls again once it stops, and gets every match once with no gap', async () => {
    const { token } = await app.accountWithKey(100_000);
    clock.advance(5);
    await app.services.monitorStream!.runCycle(); // the stream starts at the heads
    const monitor = await createMonitor(app, token, { subreddits: ['r/typescript', 'r/node'], keywords: ['kysely'], sources: ['posts', 'comments'] });
    // A rule that reads a comment's post title: the stream cannot answer it (without the title, `-title:kysely`
    // would hold for every comment), so its comments are polled, and the stream matches none for it.
    const titled = await createMonitor(app, token, { subreddits: ['r/saas'], query: 'hello -title:kysely', sources: ['comments'] });
    const watchFrom = clock.now().getTime();

    await run(300, true);
    expect(ofSubreddits(app, ['typescript', 'node'])).toEqual([]);
    expect(ofSubreddits(app, ['saas']).length).toBeGreaterThanOrEqual(5);
    const health = async (id: string) => ((await (await app.api('GET', `/api/v1/monitors/${id}`, { token })).json()) as { health: { status: string; read_by_stream: string[] } }).health;
    expect(await health(monitor.id)).toMatchObject({ status: 'ok', read_by_stream: ['posts', 'comments'] });
    expect(await health(titled.id)).toMatchObject({ status: 'ok', read_by_stream: [] });

    // The stream stops: released, and no more cycles. Within a cycle past its last commit the poller lists again.
    await app.services.monitorStream!.release();
    await run(60, false);
    expect(ofSubreddits(app, ['typescript', 'node']).length).toBeGreaterThan(0);
    expect(await health(monitor.id)).toMatchObject({ status: 'ok', read_by_stream: [] });
    await run(180, false);
    options.perSecond = 0; // then everything late becomes visible and is read
    await run(120, false);

    const items = app.reddit.firehose!.items().filter((item) => item.visibleMs !== null && item.createdMs >= watchFrom);
    const text = (item: FirehoseItem) => ('body' in item.thing ? item.thing.body : `${item.thing.title} ${item.thing.selftext}`);
    const expected = items.filter((item) => ['typescript', 'node'].includes(item.thing.subreddit) && text(item).includes('kysely')).map(fullnameOf).sort();
    const stored = (await storedMatches(app, monitor.id)).map((row) => row.reddit_id);
    expect(stored.length).toBe(new Set(stored).size);
    expect(stored.sort()).toEqual(expected);
    const comment = (item: FirehoseItem) => item.thing as FakeComment;
    const titles = items
      .filter((item) => item.kind === 't1' && item.thing.subreddit === 'saas' && comment(item).body.includes('hello') && !comment(item).link_title!.includes('kysely'))
      .map(fullnameOf)
      .sort();
    expect(titles.length).toBeGreaterThan(0);
    expect((await storedMatches(app, titled.id)).map((row) => row.reddit_id).sort()).toEqual(titles);
    expect(await app.database.db.selectFrom('monitor_gaps').selectAll().execute()).toEqual([]);
  });
});
