/**
 * The relevance-judge scenario of the monitors benchmark: 50 subreddits, 100 monitors of 10 keywords
 * each created twice, once with an intent (bar: the default 60) and once without, ~200 items a
 * minute of which 40% ask for a tool recommendation, and the fake OpenAI-compatible model
 * (test/support/fake-llm.ts) answering each call after SLOW_MS: 85 to an item that asks, 20 to the
 * rest, so matches are both delivered and filtered.
 *
 * Delivery delay: the poller runs on simulated time, but while a cycle runs the services' clock (and
 * the fake Reddit's) is the cycle's simulated start plus the real time since it began, so a match's
 * `found_at` − its cycle's start is the real time the poll took to store it: reading, matching,
 * judging, storing. A poll judges all its monitors at once and stores each as soon as its verdicts
 * are in; the added delay is measured against a control run of the same world (same seed, same
 * items) in which no monitor has an intent, and the same cycles' matches without an intent are shown
 * beside it (they should not wait for the model). Judge calls are the fake model's request count; tokens are
 * the usage the service's own client read in the fake's answers.
 */
import type { LlmClient } from '../src/integrations/llm/llm.client.ts';
import { startFakeLlm } from '../test/support/fake-llm.ts';
import { startFakeReddit } from '../test/support/fake-reddit.ts';
import { ledgerSum } from '../test/support/ledger.ts';
import { createWorkload } from './monitors.workload.ts';
import { simulatedServices } from './support.ts';

const INTERVAL_S = 60;
const SLOW_MS = 150;
const PER_MINUTE = 200;
const ACCOUNTS = 20;
const ASKS = ' Which tool would you recommend for this?';
const INTENT = 'Someone asking which tool to use, or for a recommendation';

async function simulate(options: { minutes: number; seed: number; intents: boolean }) {
  const workload = createWorkload({ seed: options.seed, subreddits: 50, monitors: 100, keywordsPerMonitor: 10 });
  const start = Date.parse('2026-11-23T12:00:00.000Z');
  let simulated = start;
  /** performance.now() when the running cycle began; null between cycles, when the clock stands still. */
  let cycleBegan: number | null = null;
  let budgetWaits = 0;
  const now = () => simulated + (cycleBegan === null ? 0 : performance.now() - cycleBegan);
  const sleep = async (ms: number) => void ((simulated += ms), budgetWaits++);

  const llm = await startFakeLlm();
  llm.slowMs = SLOW_MS;
  const fake = await startFakeReddit();
  fake.clock = now;
  for (const subreddit of workload.subreddits) {
    const post = fake.addPost({ subreddit, title: 'older post', created_utc: start / 1000 - 3600 });
    fake.addComment({ subreddit, body: 'older comment', link_id: post.id, created_utc: start / 1000 - 3000 });
  }
  const usage = { prompt: 0, completion: 0 };
  const tally = (client: LlmClient): LlmClient => ({
    ...client,
    async complete(input) {
      const completion = await client.complete(input);
      usage.prompt += completion.usage.prompt_tokens;
      usage.completion += completion.usage.completion_tokens;
      return completion;
    },
  });
  const env = { REDDIT_REQUESTS_PER_MINUTE: '90', MONITOR_INTERVAL_SECONDS: String(INTERVAL_S), LLM_BASE_URL: llm.url, LLM_MODEL: 'fake-judge', LLM_API_KEY: llm.apiKey };
  const services = await simulatedServices(fake, { now, sleep }, env, tally);
  try {
    const accounts: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const account = await services.accounts.createAccount(`judge-${i}@bench.local`);
      await services.credits.grant(account.id, 10_000_000, 'bench');
      accounts.push(account.id);
    }
    /** Monitor id → whether it is the twin given the intent (in the control run, none is); the two share a pair number. */
    const hasIntent = new Map<string, boolean>();
    const pairOf = new Map<string, number>();
    for (const [i, monitor] of workload.monitors.entries()) {
      for (const intent of [true, false]) {
        const input = { subreddits: monitor.subreddits.map((name) => `r/${name}`), keywords: monitor.keywords, exclude_keywords: monitor.excludes };
        const settings = { ...input, name: `judge ${i} ${intent}`, match: monitor.mode, sources: monitor.sources, intent: intent && options.intents ? INTENT : null };
        const view = await services.monitors.create(accounts[i % ACCOUNTS]!, settings, { via: 'api' });
        hasIntent.set(view.id, intent);
        pairOf.set(view.id, i);
      }
    }

    /** Each cycle's simulated start, in order: a match belongs to the last one at or before its found_at. */
    const cycles: number[] = [];
    const runCycle = async () => {
      cycles.push(simulated);
      cycleBegan = performance.now();
      await services.monitorPoller.runCycle();
      simulated = now();
      cycleBegan = null;
    };
    await runCycle();
    let written = 0;
    for (let minute = 1; minute <= options.minutes; minute++) {
      const from = start + (minute - 1) * INTERVAL_S * 1000;
      const count = Math.round(PER_MINUTE * (0.7 + 0.6 * workload.random()));
      const times = Array.from({ length: count }, () => from + Math.floor(workload.random() * INTERVAL_S * 1000)).sort((a, b) => a - b);
      for (const at of times) {
        const item = workload.item(workload.random() < 1 / 3 ? 'post' : 'comment');
        const body = item.body + (workload.random() < 0.4 ? ASKS : '');
        const created_utc = Math.floor(at / 1000);
        if (item.type === 'post') fake.addPost({ subreddit: item.subreddit, title: item.title, selftext: body, created_utc });
        else fake.addComment({ subreddit: item.subreddit, body, created_utc });
        written++;
      }
      simulated = Math.max(simulated, from + INTERVAL_S * 1000);
      await runCycle();
    }

    const rows = await services.db.selectFrom('monitor_matches').select(['monitor_id', 'reddit_id', 'found_at', 'relevance', 'filtered', 'judge_error']).execute();
    const delays = { intent: [] as number[], plain: [] as number[] };
    /** "pair reddit_id" → how many of the pair matched it: 2 when both did, as they should. */
    const pairs = new Map<string, number>();
    for (const row of rows) {
      const found = Date.parse(row.found_at);
      const cycleStart = Math.max(...cycles.filter((at) => at <= found));
      delays[hasIntent.get(row.monitor_id) ? 'intent' : 'plain'].push(found - cycleStart);
      const key = `${pairOf.get(row.monitor_id)} ${row.reddit_id}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
    const intentRows = rows.filter((row) => options.intents && hasIntent.get(row.monitor_id));
    const balances = await services.db.selectFrom('accounts').select(['id', 'balance']).execute();
    let ledgerMismatches = 0;
    for (const { id, balance } of balances) if (Number(balance) !== (await ledgerSum(services.db, id))) ledgerMismatches++;
    return {
      written,
      delays,
      calls: llm.requests.length,
      usage,
      budgetWaits,
      twinsAgree: [...pairs.values()].every((both) => both === 2),
      matches: {
        intent: intentRows.length,
        judged: intentRows.filter((row) => row.relevance !== null).length,
        delivered: intentRows.filter((row) => row.relevance !== null && Number(row.filtered) === 0).length,
        filtered: intentRows.filter((row) => Number(row.filtered) === 1).length,
        unjudged: intentRows.filter((row) => row.judge_error !== null).length,
      },
      ledger: { accounts: balances.length, mismatches: ledgerMismatches },
    };
  } finally {
    await services.close();
    await fake.close();
    await llm.close();
  }
}

export async function runJudge(options: { minutes: number; seed: number }) {
  const run = await simulate({ ...options, intents: true });
  const control = await simulate({ ...options, intents: false });
  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  };
  const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
  const spread = (values: number[]) => `p50 ${ms(percentile(values, 0.5))} / p95 ${ms(percentile(values, 0.95))}`;
  const controlDelays = [...control.delays.intent, ...control.delays.plain];
  const added = (p: number) => percentile(run.delays.intent, p) - percentile(controlDelays, p);
  const { matches, usage } = run;
  const perJudged = (value: number, digits: number) => (matches.judged === 0 ? '–' : (value / matches.judged).toFixed(digits));
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const lines = [
    `relevance judge (${options.minutes} simulated minutes, ${run.written.toLocaleString('en-US')} items written; 50 subreddits, 100 monitors with an intent and the same 100 without; fake model answering every call in ${SLOW_MS} ms):`,
    `  method                          delay = found_at − cycle start, the clock running with real time during a cycle; added = intent matches − a control run of the same items with no intent`,
    `  matches with an intent          ${matches.intent}: ${matches.delivered} delivered, ${matches.filtered} filtered (score < 60), ${matches.unjudged} unjudged   target 0 unjudged: ${verdict(matches.unjudged === 0)}`,
    `  judge calls per judged match    ${perJudged(run.calls, 3)} (${run.calls} calls for ${matches.judged} judged matches)`,
    `  model tokens per judged match   ${perJudged(usage.prompt, 0)} prompt + ${perJudged(usage.completion, 0)} completion (${usage.prompt.toLocaleString('en-US')} + ${usage.completion.toLocaleString('en-US')} in all)`,
    `  delivery delay, with intent     ${spread(run.delays.intent)}; same cycles without an intent ${spread(run.delays.plain)}`,
    `  delivery delay, control run     ${spread(controlDelays)} (no intent, no model call)`,
    `  added delivery latency          p50 ${ms(added(0.5))} / p95 ${ms(added(0.95))}   target p95 ≤ ${INTERVAL_S} s (the poll's time for judging): ${verdict(added(0.95) <= INTERVAL_S * 1000)}`,
    `  twins matched the same items    ${run.twinsAgree && control.twinsAgree ? 'yes' : 'NO'}; budget waits during the runs: ${run.budgetWaits + control.budgetWaits}`,
    `  ledger                          ${run.ledger.accounts + control.ledger.accounts} accounts, balance = ledger sum   target all: ${verdict(run.ledger.mismatches + control.ledger.mismatches === 0)}`,
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
