/**
 * The fair-share scenario of the monitors benchmark: one greedy account watching 5,000
 * subreddits (limits raised, as a self-hoster might; 100 listing requests a cycle for posts and
 * comments, more than the 67 a cycle may make at 90 a minute) and one normal account with 5 monitors
 * over 20 subreddits, on simulated time with the real poller, client and budget. It reports the
 * normal account's recall and detection latency (the target: p95 within two intervals) and what the
 * greedy account got: its share of the reads, its latency and its gaps.
 */
import { startFakeReddit } from '../test/support/fake-reddit.ts';
import { seeded } from './monitors.workload.ts';
import { simulatedServices } from './support.ts';

const INTERVAL_S = 60;
const GREEDY_MONITORS = 50;
const NORMAL_SUBREDDITS = Array.from({ length: 20 }, (_, i) => `normal${String(i).padStart(2, '0')}`);

export async function runFairShare(options: { minutes: number; seed: number }) {
  const random = seeded(options.seed);
  const start = Date.parse('2026-11-23T12:00:00.000Z');
  let now = start;
  const sleep = async (ms: number) => void (now += ms);
  const fake = await startFakeReddit();
  fake.clock = () => now;
  fake.limitPerMinute = 100;
  const greedyNames = Array.from({ length: GREEDY_MONITORS * 100 }, (_, i) => `greedy${String(i).padStart(4, '0')}`);
  for (const name of [...greedyNames, ...NORMAL_SUBREDDITS]) fake.subreddits.set(name, 'public');

  const services = await simulatedServices(fake, { now: () => now, sleep }, {
    REDDIT_REQUESTS_PER_MINUTE: '90',
    MONITOR_INTERVAL_SECONDS: String(INTERVAL_S),
    MONITOR_MAX_PER_ACCOUNT: '1000',
    MONITOR_MAX_SUBREDDITS_PER_ACCOUNT: '100000',
  });
  try {
    const account = async (name: string) => {
      const created = await services.accounts.createAccount(`${name}@bench.local`);
      await services.credits.grant(created.id, 10_000_000, 'bench');
      return created.id;
    };
    const [greedy, normal] = [await account('greedy'), await account('normal')];
    const sources = ['posts', 'comments'] as ('posts' | 'comments')[];
    // The API's: a hundred subreddits a monitor is what a script sends, not a person on the dashboard.
    const api = { via: 'api' } as const;
    for (let m = 0; m < GREEDY_MONITORS; m++) {
      const subreddits = greedyNames.slice(m * 100, (m + 1) * 100).map((name) => `r/${name}`);
      await services.monitors.create(greedy, { name: `greedy ${m}`, subreddits, keywords: ['needle'], sources }, api);
    }
    for (let m = 0; m < 5; m++) {
      const subreddits = NORMAL_SUBREDDITS.slice(m * 4, m * 4 + 8).map((name) => `r/${name}`);
      await services.monitors.create(normal, { name: `normal ${m}`, subreddits, keywords: ['needle'], sources }, api);
    }
    const totals = { requests: 0, deferred: 0, gaps: 0 };
    const cycle = async () => {
      const report = await services.monitorPoller.runCycle();
      if (report) for (const key of ['requests', 'deferred', 'gaps'] as const) totals[key] += report[key];
    };
    await cycle();
    let written = 0;
    for (let minute = 1; minute <= options.minutes; minute++) {
      const from = start + (minute - 1) * INTERVAL_S * 1000;
      for (let i = 0; i < 300; i++) {
        const subreddit = random() < 0.2 ? NORMAL_SUBREDDITS[Math.floor(random() * 20)]! : greedyNames[Math.floor(random() * greedyNames.length)]!;
        const created_utc = Math.floor((from + random() * INTERVAL_S * 1000) / 1000);
        const body = random() < 0.3 ? 'looking for a needle here' : 'nothing to see';
        if (random() < 0.5) fake.addPost({ subreddit, title: body, created_utc });
        else fake.addComment({ subreddit, body, created_utc });
        written++;
      }
      now = Math.max(now, from + INTERVAL_S * 1000);
      await cycle();
    }

    // Expected: every "needle" thing after the monitors started, once per monitor watching its subreddit.
    const rows = await services.db.selectFrom('monitor_matches').select(['account_id', 'found_at', 'created_at']).execute();
    const figures = (accountId: string) => {
      const latencies = rows.filter((row) => row.account_id === accountId).map((row) => (Date.parse(row.found_at) - Date.parse(row.created_at)) / 1000);
      latencies.sort((a, b) => a - b);
      const p = (q: number) => (latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)]!);
      return { matches: latencies.length, p50: p(0.5), p95: p(0.95) };
    };
    const needles = (names: Set<string>) =>
      [...fake.posts.filter((p) => p.title.includes('needle')), ...fake.comments.filter((c) => c.body.includes('needle'))].filter(
        (thing) => names.has(thing.subreddit) && thing.created_utc * 1000 >= start,
      );
    const normalWatch = new Map<string, number>(); // subreddit → monitors of the normal account watching it
    for (let m = 0; m < 5; m++) for (const name of NORMAL_SUBREDDITS.slice(m * 4, m * 4 + 8)) normalWatch.set(name, (normalWatch.get(name) ?? 0) + 1);
    const normalExpected = needles(new Set(NORMAL_SUBREDDITS)).reduce((sum, thing) => sum + normalWatch.get(thing.subreddit)!, 0);
    const [g, n] = [figures(greedy), figures(normal)];
    const greedyExpected = needles(new Set(greedyNames)).length;
    const lines = [
      `fair share (${options.minutes} simulated minutes, ${written} items written; one account with ${greedyNames.length.toLocaleString('en-US')} subreddits, one with 20):`,
      `  listing requests per cycle  ${(totals.requests / (options.minutes + 1)).toFixed(1)} (a cycle may make 67); groups left for the next cycle: ${totals.deferred}`,
      `  normal account              recall ${((100 * n.matches) / Math.max(1, normalExpected)).toFixed(2)}% (${n.matches} of ${normalExpected}), detection p50 ${n.p50} s / p95 ${n.p95} s   target p95 ≤ ${2 * INTERVAL_S} s: ${n.p95 <= 2 * INTERVAL_S && n.matches === normalExpected ? 'met' : 'NOT met'}`,
      `  greedy account              ${g.matches} of ${greedyExpected} matches, detection p50 ${g.p50} s / p95 ${g.p95} s, ${totals.gaps} gap rows`,
    ];
    process.stdout.write(`\n${lines.join('\n')}\n`);
  } finally {
    await services.close();
    await fake.close();
  }
}
