import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/container.ts';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import type { FirehoseItem, FirehoseOptions } from '../support/fake-reddit-firehose.ts';
import { ledgerSum } from '../support/ledger.ts';
import type { MonitorHealth } from '../../src/modules/monitors/monitors.view.ts';
import { SOURCE_OF } from '../../src/modules/monitors/stream/stream.cycle.ts';
import { createMonitor, type PinnedClock } from '../support/monitors.ts';
import { cheapPasswords } from '../support/passwords.ts';
import { fullnameOf, idNumber, runStream, startFirehoseApp, streamPositions } from '../support/stream.ts';

const SUBREDDITS = ['typescript', 'node', 'saas'];
const coverage = (app: TestApp) => app.database.db.selectFrom('stream_coverage').selectAll().execute();

describe.each(engines)('the site-wide stream on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let options: FirehoseOptions;
  beforeAll(async () => {
    ({ app, clock, options } = await startFirehoseApp(engine, {}, { subreddits: SUBREDDITS, perSecond: 8, unavailable: 0.04, late: { share: 0.1, maxSeconds: 20 }, words: ['kysely', 'hello', 'world', 'postgres'] }));
  });
  afterAll(() => app.close());

  it('gets every post and comment once across deleted and late ids, a restart and a second instance, and its coverage adds up', async () => {
    const { accountId, token } = await app.accountWithKey(100_000);
    const monitor = await createMonitor(app, token, { subreddits: SUBREDDITS.map((s) => `r/${s}`), keywords: ['kysely'], sources: ['posts', 'comments'] });
    clock.advance(5);
    await app.services.monitorStream!.runCycle(); // starts at the heads: what came before is not its
    const start = await streamPositions(app);
    await runStream(app.services, clock, 60);

    // A second instance on the same database: while the first holds the lease it reads nothing.
    const second = await createServices(app.services.config, { clock: clock.now, passwords: cheapPasswords, redditOptions: { sleep: () => Promise.resolve() } });
    try {
      const asked = app.reddit.requests.length;
      expect(await second.monitorStream!.runCycle()).toBeNull();
      expect(app.reddit.requests.length).toBe(asked);
      // The first one stops (a restart): the second resumes from the position it left.
      await app.services.monitorStream!.release();
      await runStream(second, clock, 60);
      options.perSecond = 0;
      // Every id left out is asked once more a minute later; with fewer than 100 due that waits for
      // the latency bound (stream.cycle.ts LATENCY_BOUND_MS), so the last ones go out within 150 s.
      await runStream(second, clock, 150);
    } finally {
      await second.close();
    }

    const end = await streamPositions(app);
    const made = app.reddit.firehose!.items().filter((item) => idNumber(item.id) > start.get(item.kind)!);
    for (const kind of ['t3', 't1'] as const) expect(end.get(kind)).toBe(Math.max(...made.filter((item) => item.kind === kind).map((item) => idNumber(item.id))));
    const visible = made.filter((item) => item.visibleMs !== null);
    expect(visible.some((item) => item.visibleMs! > item.createdMs)).toBe(true);
    const rows = await app.database.db.selectFrom('monitor_matches').select('reddit_id').where('monitor_id', '=', monitor.id).execute();
    // A comment read by id has no post title (/api/info leaves link_title out): its own text is what matches.
    const text = (item: FirehoseItem) => ('body' in item.thing ? item.thing.body : `${item.thing.title} ${item.thing.selftext}`);
    const expected = visible.filter((item) => text(item).includes('kysely')).map(fullnameOf).sort();
    expect(rows.map((row) => row.reddit_id).sort()).toEqual(expected);
    expect(await ledgerSum(app.services.db, accountId)).toBe(100_000 - expected.length);

    const covered = await coverage(app);
    for (const kind of ['t3', 't1'] as const) {
      const mine = covered.filter((row) => row.kind === kind);
      const sum = (field: 'asked' | 'returned' | 'unavailable' | 'skipped') => mine.reduce((n, row) => n + Number(row[field]), 0);
      const ofKind = made.filter((item) => item.kind === kind);
      expect(sum('asked')).toBe(ofKind.length);
      expect(sum('returned')).toBe(ofKind.filter((item) => item.visibleMs !== null).length);
      expect(sum('unavailable')).toBe(ofKind.filter((item) => item.visibleMs === null).length);
      expect(sum('skipped')).toBe(0);
      expect(Math.min(...mine.map((row) => idNumber(row.first_id)))).toBe(start.get(kind)! + 1);
    }
    expect(await app.database.db.selectFrom('stream_pending').selectAll().execute()).toEqual([]);

    // Any key reads the same site-wide figures.
    const other = await app.accountWithKey(0);
    const answer = await app.api('GET', '/api/v1/stream/coverage?hours=2', { token: other.token });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { enabled: boolean; hours: { source: string; asked: number; returned: number; unavailable: number; pending: number }[] };
    expect(body.enabled).toBe(true);
    const posts = body.hours.filter((h) => h.source === 'posts');
    expect(posts.reduce((n, h) => n + h.asked, 0)).toBe(made.filter((item) => item.kind === 't3').length);
    expect(body.hours.every((h) => h.asked === h.returned + h.unavailable + h.pending)).toBe(true);
  });
});

describe.each(engines)('the site-wide stream behind by more than its bound on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let options: FirehoseOptions;
  beforeAll(async () => {
    // 30 calls a minute for the stream: 5 a 10-s cycle, 300 ids, 30 a second against 100 made.
    ({ app, clock, options } = await startFirehoseApp(engine, { REDDIT_REQUESTS_PER_MINUTE: '60', REDDIT_STREAM_MAX_LAG_SECONDS: '60' }, { subreddits: SUBREDDITS, perSecond: 100, unavailable: 0, late: { share: 0, maxSeconds: 1 } }));
  });
  afterAll(() => app.close());

  it('skips ahead and records exactly the ranges it skipped; asked and skipped add up to every id; a monitor over all of Reddit says it is behind and lists the stretches as gaps', async () => {
    const { token } = await app.accountWithKey(0);
    // Its health is the point, not its matches: a word the firehose never writes keeps it unpaused.
    const monitor = await createMonitor(app, token, { subreddits: ['all'], keywords: ['never-written'], sources: ['posts', 'comments'] });
    clock.advance(5);
    await app.services.monitorStream!.runCycle();
    const start = await streamPositions(app);
    await runStream(app.services, clock, 300);
    const end = await streamPositions(app);
    const gaps = await app.database.db.selectFrom('stream_gaps').selectAll().execute();
    expect(gaps.length).toBeGreaterThan(0);
    const covered = await coverage(app);
    for (const kind of ['t3', 't1'] as const) {
      const mine = gaps.filter((gap) => gap.kind === kind).map((gap) => [idNumber(gap.from_id), idNumber(gap.to_id)] as const).sort((a, b) => a[0] - b[0]);
      for (const [i, [from, to]] of mine.entries()) {
        expect(to).toBeGreaterThanOrEqual(from);
        expect(from).toBeGreaterThan(i === 0 ? start.get(kind)! : mine[i - 1]![1]);
      }
      const skipped = mine.reduce((n, [from, to]) => n + to - from + 1, 0);
      const rows = covered.filter((row) => row.kind === kind);
      expect(rows.reduce((n, row) => n + Number(row.skipped), 0)).toBe(skipped);
      expect(rows.reduce((n, row) => n + Number(row.asked) + Number(row.skipped), 0)).toBe(end.get(kind)! - start.get(kind)!);
    }

    // The monitor is read late and says so; every skip is a gap of its own, of the source skipped.
    const health = async () => ((await (await app.api('GET', `/api/v1/monitors/${monitor.id}`, { token })).json()) as { health: MonitorHealth }).health;
    const late = await health();
    expect(late).toMatchObject({ status: 'stale', stream: { state: 'behind', detail: expect.stringMatching(/^behind: the site-wide stream is \d+ s behind Reddit/) } });
    const own = await app.database.db.selectFrom('monitor_gaps').selectAll().where('monitor_id', '=', monitor.id).execute();
    const sorted = (rows: string[][]) => rows.map((row) => row.join(' ')).sort();
    expect(sorted(own.map((gap) => [gap.source, gap.recorded_at, gap.subreddits]))).toEqual(sorted(gaps.map((gap) => [SOURCE_OF[gap.kind], gap.recorded_at, '["r/all"]'])));
    expect(own.every((gap) => gap.from_at < gap.to_at)).toBe(true);
    expect(late.gaps.length).toBe(Math.min(20, own.length));

    // Reddit quietens to 10 a second: the stream catches up, and the monitor is read in time again.
    options.perSecond = 10;
    await runStream(app.services, clock, 400);
    expect(await health()).toMatchObject({ status: 'ok', stream: { state: 'reading', detail: null } });
  });
});
