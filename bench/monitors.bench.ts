/**
 * Monitors benchmark. End to end on simulated time: the fake Reddit with 500 subreddits
 * writing a few hundred posts and comments a minute (unevenly), 1,000 monitors of 10 keywords each
 * (half phrase, half word mode) created through the usecases, and the real poller, client and shared
 * budget (90 requests a minute; the fake answers 429 beyond 100 in a clock minute). Each simulated
 * minute writes its items, moves the clock to the minute's end and runs one poller cycle; waits for
 * the budget move the clock instead of sleeping. As on Reddit, some comments are listed late, above
 * newer ones and with a lower id (recorded listings show this): recall is reported for them apart.
 * Then the local matching alone, 1,000 monitors' keywords and then queries (monitors.matching.ts), the
 * fair-share scenario (monitors.fair-share.ts) and the relevance judge's (monitors.judge.ts).
 * Usage: npm run bench:monitors [-- --minutes 30 --seed 1 --per-minute 300]
 */
import { parseArgs } from 'node:util';
import { windowOf } from '../src/integrations/reddit/reddit.budget.ts';
import { startFakeReddit } from '../test/support/fake-reddit.ts';
import { simulatedServices } from './support.ts';
import { createWorkload, type BenchItem } from './monitors.workload.ts';
import { runFairShare } from './monitors.fair-share.ts';
import { measureMatching } from './monitors.matching.ts';
import { runJudge } from './monitors.judge.ts';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '30' }, seed: { type: 'string', default: '1' }, 'per-minute': { type: 'string', default: '300' } },
});
const minutes = Number(values.minutes);
const perMinute = Number(values['per-minute']);
const INTERVAL_S = 60;
const BUDGET = 90;
const REDDIT_LIMIT = 100;
const ACCOUNTS = 100;
/** Of the comments created in a minute's last 10 s, the share Reddit lists only after the cycle read, with a lower id. */
const LATE_SHARE = 0.1;

const start = Date.parse('2026-11-23T12:00:00.000Z');
let now = start;
const sleep = async (ms: number) => void (now += ms);

const fake = await startFakeReddit();
fake.clock = () => now;
fake.limitPerMinute = REDDIT_LIMIT;
// Each API call stamped with the simulated time it arrived at: the per-minute counts and the 429s.
const stamps: number[] = [];
const log = fake.requests;
const record = log.push.bind(log);
log.push = (...entries) => {
  for (const entry of entries) if (entry.path !== '/api/v1/access_token') stamps.push(now);
  return record(...entries);
};

const workload = createWorkload({ seed: Number(values.seed), subreddits: 500, monitors: 1000, keywordsPerMonitor: 10 });
// An hour of history in every subreddit: they exist, and the first cycle has something to set its marks on.
for (const subreddit of workload.subreddits) {
  const post = fake.addPost({ subreddit, title: 'older post', created_utc: start / 1000 - 3600 });
  fake.addComment({ subreddit, body: 'older comment', link_id: post.id, created_utc: start / 1000 - 3000 });
}

const services = await simulatedServices(fake, { now: () => now, sleep }, {
  REDDIT_REQUESTS_PER_MINUTE: String(BUDGET),
  MONITOR_INTERVAL_SECONDS: String(INTERVAL_S),
});

try {
  const accounts: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = await services.accounts.createAccount(`monitors-${i}@bench.local`);
    await services.credits.grant(account.id, 10_000_000, 'bench');
    accounts.push(account.id);
  }
  const ids: string[] = [];
  for (const [i, monitor] of workload.monitors.entries()) {
    const view = await services.monitors.create(accounts[i % ACCOUNTS]!, {
      name: `bench ${i}`,
      subreddits: monitor.subreddits.map((name) => `r/${name}`),
      keywords: monitor.keywords,
      exclude_keywords: monitor.excludes,
      match: monitor.mode,
      sources: monitor.sources,
      // The API's: monitors by the thousand are made by integrations, not by hand on the dashboard.
    }, { via: 'api' });
    ids.push(view.id);
  }

  process.stdout.write(
    `subpilot monitors benchmark: SQLite, ${workload.subreddits.length} subreddits, ${ids.length.toLocaleString('en-US')} monitors × 10 keywords, ` +
      `${minutes} simulated minutes at ~${perMinute} items/min, interval ${INTERVAL_S} s, budget ${BUDGET}/min (fake Reddit: 429 beyond ${REDDIT_LIMIT})\n`,
  );
  const totals = { requests: 0, items: 0, stored: 0, gaps: 0, errors: 0, lostCycles: 0 };
  const runCycle = async () => {
    const report = await services.monitorPoller.runCycle();
    if (!report) return void totals.lostCycles++;
    for (const key of ['requests', 'items', 'stored', 'gaps', 'errors'] as const) totals[key] += report[key];
  };
  await runCycle(); // marks on the history; nothing older than the monitors is matched

  /** "monitor reddit_id" → the keywords the judge expects and when the item was created (ms). */
  const expected = new Map<string, { keywords: string[]; createdMs: number }>();
  const items: BenchItem[] = [];
  const written = { post: 0, comment: 0 };
  /** "monitor reddit_id" of the expected matches in comments listed late. */
  const lateKeys = new Set<string>();
  let late: { subreddit: string; body: string; created_utc: number; keys: [string, { keywords: string[]; createdMs: number }][] }[] = [];
  const started = performance.now();
  for (let minute = 1; minute <= minutes; minute++) {
    // The comments Reddit had not listed by the last read: above the newest now, with lower ids.
    for (const entry of late) {
      const fullname = `t1_${fake.addComment({ subreddit: entry.subreddit, body: entry.body, created_utc: entry.created_utc, listedLate: true }).id}`;
      for (const [monitorId, want] of entry.keys) {
        expected.set(`${monitorId} ${fullname}`, want);
        lateKeys.add(`${monitorId} ${fullname}`);
      }
    }
    late = [];
    const from = start + (minute - 1) * INTERVAL_S * 1000;
    const count = Math.round(perMinute * (0.7 + 0.6 * workload.random()));
    const times = Array.from({ length: count }, () => from + Math.floor(workload.random() * INTERVAL_S * 1000)).sort((a, b) => a - b);
    for (const at of times) {
      const item = workload.item(workload.random() < 1 / 3 ? 'post' : 'comment');
      const created_utc = Math.floor(at / 1000);
      written[item.type]++;
      items.push(item);
      const keys = [...workload.expected(item)].map(([index, keywords]) => [ids[index]!, { keywords, createdMs: created_utc * 1000 }] as [string, { keywords: string[]; createdMs: number }]);
      if (item.type === 'comment' && at >= from + (INTERVAL_S - 10) * 1000 && workload.random() < LATE_SHARE) {
        late.push({ subreddit: item.subreddit, body: item.body, created_utc, keys });
        continue;
      }
      const fullname =
        item.type === 'post'
          ? `t3_${fake.addPost({ subreddit: item.subreddit, title: item.title, selftext: item.body, created_utc }).id}`
          : `t1_${fake.addComment({ subreddit: item.subreddit, body: item.body, created_utc }).id}`;
      for (const [monitorId, want] of keys) expected.set(`${monitorId} ${fullname}`, want);
    }
    now = Math.max(now, from + INTERVAL_S * 1000);
    await runCycle();
    if (minute % 10 === 0) process.stderr.write(`  minute ${minute}: ${totals.stored} matches stored, ${stamps.length} Reddit calls\n`);
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const simulatedMinutes = (now - start) / 60_000;

  const rows = await services.db.selectFrom('monitor_matches').select(['monitor_id', 'reddit_id', 'matched_keywords', 'found_at', 'created_at']).execute();
  const delivered = new Set<string>();
  let unexpected = 0;
  let wrongKeywords = 0;
  const latencies: number[] = [];
  for (const row of rows) {
    const key = `${row.monitor_id} ${row.reddit_id}`;
    delivered.add(key);
    const want = expected.get(key);
    if (!want) unexpected++;
    else if (row.matched_keywords !== JSON.stringify(want.keywords)) wrongKeywords++;
    latencies.push((Date.parse(row.found_at) - Date.parse(row.created_at)) / 1000);
  }
  const found = [...expected.keys()].filter((key) => delivered.has(key)).length;
  const recall = expected.size === 0 ? 1 : found / expected.size;
  const lateFound = [...lateKeys].filter((key) => delivered.has(key)).length;
  const lateRecall = lateKeys.size === 0 ? 1 : lateFound / lateKeys.size;
  const perWindow = new Map<number, number>();
  for (const at of stamps) perWindow.set(windowOf(at), (perWindow.get(windowOf(at)) ?? 0) + 1);
  const busiest = Math.max(0, ...perWindow.values());
  const refused = [...perWindow.values()].reduce((sum, calls) => sum + Math.max(0, calls - REDDIT_LIMIT), 0);
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => (latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]!);
  const throughput = measureMatching(workload.monitors, items);

  const n = (value: number) => value.toLocaleString('en-US');
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const lines: [string, string, string][] = [
    ['items written', `${n(items.length)} (${n(written.post)} posts, ${n(written.comment)} comments; ${(items.length / minutes).toFixed(0)}/min)`, ''],
    ['Reddit requests per minute', `${(stamps.length / simulatedMinutes).toFixed(1)} average, ${busiest} in the busiest minute (${n(stamps.length)} in all, ${n(totals.requests)} listings)`, `≤ ${BUDGET}: ${verdict(busiest <= BUDGET)}`],
    ['429 answers', String(refused), `0: ${verdict(refused === 0)}`],
    ['recall', `${(recall * 100).toFixed(2)}% (${n(found)} of ${n(expected.size)} expected)`, `100%: ${verdict(recall === 1)}`],
    ['recall, comments listed late', `${(lateRecall * 100).toFixed(2)}% (${n(lateFound)} of ${n(lateKeys.size)} expected, lower id listed above higher)`, `100%: ${verdict(lateRecall === 1)}`],
    ['unexpected / wrong keywords', `${unexpected} / ${wrongKeywords}`, `0: ${verdict(unexpected + wrongKeywords === 0)}`],
    ['duplicates', String(rows.length - delivered.size), `0: ${verdict(rows.length === delivered.size)}`],
    ['detection latency p50 / p95', `${percentile(0.5)} s / ${percentile(0.95)} s`, `p95 ≤ ${2 * INTERVAL_S} s: ${verdict(percentile(0.95) <= 2 * INTERVAL_S)}`],
    ['gaps / Reddit errors / lost cycles', `${totals.gaps} / ${totals.errors} / ${totals.lostCycles}`, ''],
    ['simulated / wall time', `${simulatedMinutes.toFixed(1)} min / ${wallSeconds.toFixed(1)} s`, ''],
    ...(['keywords', 'queries'] as const).map((kind): [string, string, string] => {
      const { perSecond, buildMs, hitsPerItem } = throughput[kind];
      const what = kind === 'keywords' ? '10,000 keywords' : `${n(ids.length)} monitors' queries`;
      const value = `${n(Math.round(perSecond))} items/s on one core (index built in ${buildMs.toFixed(0)} ms; ${hitsPerItem.toFixed(2)} monitors matched an item)`;
      return [`local matching, ${what}`, value, `≥ 20,000/s: ${verdict(perSecond >= 20_000)}`];
    }),
  ];
  const width = Math.max(...lines.map(([name]) => name.length));
  process.stdout.write(`\n${lines.map(([name, value, target]) => `${name.padEnd(width)}  ${value}${target ? `   target ${target}` : ''}`).join('\n')}\n`);
} finally {
  await services.close();
  await fake.close();
}
await runFairShare({ minutes: Math.min(minutes, 20), seed: Number(values.seed) });
await runJudge({ minutes: Math.min(minutes, 10), seed: Number(values.seed) });
