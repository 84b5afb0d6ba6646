/**
 * One rate of the stream benchmark (stream.bench.ts): the real services on simulated time
 * (support.ts simulatedServices) against the fake Reddit with its firehose (fake-reddit-firehose.ts,
 * its defaults: bursty, 3% never returned, 5% late by up to 20 s), one monitor over the firehose's
 * subreddits with a keyword its words include, and nothing but the stream asking Reddit.
 *
 * The loop is the worker's (stream.usecases.ts `start`): a cycle, then the next one at once if it
 * used all its requests (behind), else STREAM_INTERVAL_SECONDS after the last one began; a wait for
 * the budget moves the clock instead of sleeping. The firehose runs `minutes` minutes (the measured
 * ones: requests a minute are counted in them), then stops and the stream drains, so
 * every id it asked has had its second asking before recall is counted (up to DRAIN_MINUTES more).
 */
import { windowOf } from '../src/integrations/reddit/reddit.budget.ts';
import { STREAM_INTERVAL_SECONDS } from '../src/modules/monitors/stream/stream.cycle.ts';
import { streamRequestsPerCycle } from '../src/modules/monitors/stream/stream.usecases.ts';
import { startFakeReddit } from '../test/support/fake-reddit.ts';
import { createFirehose, type FirehoseItem } from '../test/support/fake-reddit-firehose.ts';
import { simulatedServices } from './support.ts';

export const SUBREDDITS = ['askreddit', 'typescript', 'node', 'saas', 'startups'];
export const KEYWORD = 'kysely';
/** The most the stream may take after the firehose stops to ask what it has not asked yet. */
const DRAIN_MINUTES = 5;

export interface StreamRun {
  perSecond: number;
  minutes: number;
  /** Items created in the measured minutes (after the stream's start position). */
  created: number;
  requests: { total: number; average: number; busiest: number; heads: number; info: number; refused: number };
  /** Ids asked a minute (first askings): what the stream walked. */
  askedPerMinute: number;
  expected: number;
  found: number;
  /** Of the expected matches, those in no skipped range, and how many of them were found. */
  outsideGaps: { expected: number; found: number };
  unexpected: number;
  duplicates: number;
  latency: { p50: number; p95: number; max: number };
  coverage: { asked: number; returned: number; unavailable: number; pending: number; skipped: number; addsUp: boolean; unreached: number };
  gaps: { kind: string; from: number; to: number }[];
  /** The most the stream was behind (s), from its own position's time, at the end of any cycle. */
  maxLagSeconds: number;
  wallSeconds: number;
}

const id = (id36: string) => Number.parseInt(id36, 36);
const textOf = (item: FirehoseItem) => ('body' in item.thing ? item.thing.body : `${item.thing.title} ${item.thing.selftext}`);

export async function runStream(options: { perSecond: number; minutes: number; seed: number; budget: number; share: number; maxLagSeconds: number }): Promise<StreamRun> {
  const begin = Date.parse('2026-11-23T11:59:00.000Z');
  let now = begin;
  const sleep = async (ms: number) => void (now += ms);
  const fake = await startFakeReddit();
  fake.clock = () => now;
  fake.limitPerMinute = 100;
  const firehose = { clock: () => now, perSecond: options.perSecond, seed: options.seed, subreddits: SUBREDDITS };
  fake.firehose = createFirehose(firehose);
  // Each API call stamped with the simulated time it arrived at (the fake's clock), and what it was.
  const stamps: { at: number; path: string }[] = [];
  const record = fake.requests.push.bind(fake.requests);
  fake.requests.push = (...entries) => {
    for (const entry of entries) if (entry.path !== '/api/v1/access_token') stamps.push({ at: now, path: entry.path });
    return record(...entries);
  };
  const services = await simulatedServices(fake, { now: () => now, sleep }, {
    REDDIT_REQUESTS_PER_MINUTE: String(options.budget),
    REDDIT_STREAM_SHARE: String(options.share),
    REDDIT_STREAM_MAX_LAG_SECONDS: String(options.maxLagSeconds),
  });
  const started = performance.now();
  try {
    const stream = services.monitorStream;
    if (!stream) throw new Error('the stream is off: REDDIT_STREAM_SHARE must be above 0 and Reddit an app');
    const account = await services.accounts.createAccount('stream@bench.local');
    await services.credits.grant(account.id, 100_000_000, 'bench');
    const monitor = await services.monitors.create(
      account.id,
      { name: 'stream bench', subreddits: SUBREDDITS.map((s) => `r/${s}`), keywords: [KEYWORD], sources: ['posts', 'comments'] },
      { via: 'api' },
    );
    // A minute of history, then the first cycle: the stream starts at the heads.
    now = begin + 55_000;
    await stream.runCycle();
    const positions = async () => new Map((await services.db.selectFrom('stream_positions').selectAll().execute()).map((row) => [row.kind, row] as const));
    const start = await positions();
    const measureFrom = begin + 60_000;
    const measureTo = measureFrom + options.minutes * 60_000;
    const perCycle = streamRequestsPerCycle(Math.floor(options.share * options.budget));
    let maxLagSeconds = 0;
    const cycle = async (measuring: boolean) => {
      const cycleStart = now;
      const report = await stream.runCycle();
      // The worker's rule: back to back while a cycle used all it may, else one interval after the last began.
      if (!report || report.requests < perCycle) now = Math.max(now, cycleStart + STREAM_INTERVAL_SECONDS * 1000);
      const t1 = (await positions()).get('t1');
      if (measuring && t1) maxLagSeconds = Math.max(maxLagSeconds, (now - Date.parse(t1.read_to_at)) / 1000);
    };
    now = measureFrom;
    while (now < measureTo) await cycle(true);
    // The drain: until every id up to the newest one Reddit shows has been asked (or skipped) and none
    // waits for its second asking, at most DRAIN_MINUTES. An id above the newest visible one (deleted
    // before anyone saw it) cannot be told from one not created yet: no reader reaches it.
    firehose.perSecond = 0;
    const visibleTop = new Map<string, number>();
    for (const item of fake.firehose.items()) if (item.visibleMs !== null) visibleTop.set(item.kind, Math.max(visibleTop.get(item.kind) ?? 0, id(item.id)));
    const drained = async () =>
      [...(await positions()).values()].every((row) => id(row.read_to) >= (visibleTop.get(row.kind) ?? 0)) &&
      (await services.db.selectFrom('stream_pending').select('id').limit(1).execute()).length === 0;
    while (now < measureTo + DRAIN_MINUTES * 60_000 && !(await drained())) await cycle(false);
    const end = await positions();

    const made = fake.firehose.items().filter((item) => id(item.id) > id(start.get(item.kind)!.read_to));
    // The ids the stream reached: up to its end position (the rest, if the drain ran out, is left out of recall and coverage).
    const reached = made.filter((item) => id(item.id) <= id(end.get(item.kind)!.read_to));
    const gaps = (await services.db.selectFrom('stream_gaps').selectAll().execute()).map((g) => ({ kind: g.kind, from: id(g.from_id), to: id(g.to_id) }));
    const inGap = (item: FirehoseItem) => gaps.some((g) => g.kind === item.kind && id(item.id) >= g.from && id(item.id) <= g.to);
    const wanted = reached.filter((item) => item.visibleMs !== null && new RegExp(`\\b${KEYWORD}\\b`).test(textOf(item)));
    const rows = await services.db.selectFrom('monitor_matches').select(['reddit_id', 'found_at', 'created_at']).where('monitor_id', '=', monitor.id).execute();
    const stored = new Set(rows.map((row) => row.reddit_id));
    const name = (item: FirehoseItem) => `${item.kind}_${item.id}`;
    const found = wanted.filter((item) => stored.has(name(item))).length;
    const outside = wanted.filter((item) => !inGap(item));
    const wantedNames = new Set(wanted.map(name));
    const latencies = rows.map((row) => (Date.parse(row.found_at) - Date.parse(row.created_at)) / 1000).sort((a, b) => a - b);
    const percentile = (p: number) => (latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]!);

    const coverageRows = await services.db.selectFrom('stream_coverage').selectAll().execute();
    const sum = (field: 'asked' | 'returned' | 'unavailable' | 'skipped') => coverageRows.reduce((n, row) => n + Number(row[field]), 0);
    const pending = (await services.db.selectFrom('stream_pending').selectAll().execute()).length;
    // Requests a minute in the measured minutes only (a cycle begun in the last one may wait into the next).
    const measured = stamps.filter((stamp) => stamp.at >= measureFrom && stamp.at < measureTo);
    const perWindow = new Map<number, number>();
    for (const stamp of measured) perWindow.set(windowOf(stamp.at), (perWindow.get(windowOf(stamp.at)) ?? 0) + 1);
    const heads = measured.filter((s) => /^\/r\/all\//.test(s.path)).length;
    const measuredIds = made.filter((item) => item.createdMs < measureTo).length;
    const coverage = { asked: sum('asked'), returned: sum('returned'), unavailable: sum('unavailable'), pending, skipped: sum('skipped') };
    return {
      perSecond: options.perSecond,
      minutes: options.minutes,
      created: measuredIds,
      requests: {
        total: measured.length,
        average: measured.length / options.minutes,
        busiest: Math.max(0, ...perWindow.values()),
        heads,
        info: measured.filter((s) => s.path.startsWith('/api/info')).length,
        // The fake answers 429 beyond its limit in a clock minute.
        refused: [...perWindow.values()].reduce((n, calls) => n + Math.max(0, calls - fake.limitPerMinute!), 0),
      },
      askedPerMinute: coverage.asked / ((now - measureFrom) / 60_000),
      expected: wanted.length,
      found,
      outsideGaps: { expected: outside.length, found: outside.filter((item) => stored.has(name(item))).length },
      unexpected: rows.filter((row) => !wantedNames.has(row.reddit_id)).length,
      duplicates: rows.length - stored.size,
      latency: { p50: percentile(0.5), p95: percentile(0.95), max: latencies.at(-1) ?? 0 },
      coverage: { ...coverage, addsUp: coverage.asked === coverage.returned + coverage.unavailable + coverage.pending && coverage.asked + coverage.skipped === reached.length, unreached: made.length - reached.length },
      gaps,
      maxLagSeconds,
      wallSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await services.close();
    await fake.close();
  }
}
