/**
 * The one reader behind every monitor. Each cycle it reads the newest posts and comments of the
 * union of the active monitors' subreddits, 100 subreddits per request, matches every new thing
 * against every monitor's keywords locally (one index), stores and charges the matches, and only
 * then moves the high-water marks: a process killed at any moment re-reads, and the unique
 * (monitor, thing) row keeps it from storing or charging anything twice. Reddit requests grow with
 * the subreddits and their traffic, never with monitors, keywords or accounts.
 */
import type { Logger } from 'pino';
import type { MonitorsConfig, Prices } from '../../../shared/config/config.ts';
import type { Kysely } from 'kysely';
import { transaction, type Database, type Tables } from '../../../shared/db/database.ts';
import type { RedditClient } from '../../../integrations/reddit/reddit.client.ts';
import { RedditBudgetExhaustedError } from '../../../integrations/reddit/reddit.errors.ts';
import { MAX_SUBREDDITS_PER_LISTING } from '../../../integrations/reddit/reddit.query.ts';
import type { SubredditEntry, SubredditsUsecases } from '../../subreddits/subreddits.usecases.ts';
import type { Fence, MatchDelivery, PollContext } from './poller.delivery.ts';
import type { MatchJudging } from './judging.usecases.ts';
import { stateOf } from '../monitors.health.ts';
import { createPollerRepository } from './poller.repository.ts';
import { leasedCycles } from '../leased-cycles.ts';
import { cachedIndexOfMonitors, collectMatches, gapsOf, sinceOf, subredditsOf, type GapRow, type ReadGroup } from './poller.cycle.ts';
import { readGroup } from './poller.reading.ts';
import { planReads, type LastReads } from './poller.schedule.ts';
import { splitByStream, type StreamSplit } from './poller.serving.ts';
import type { StreamCovers } from '../monitors.stream-serving.ts';
import { watchRedditApp } from './reddit-app.usecases.ts';
import { readErrorOf } from '../monitors.reddit-app.ts';
import { isCaughtUp } from './resume.ts';
import { isAllOfReddit } from '../monitors.scope.ts';
import { createCreditResume } from './resume.usecases.ts';
import type { MonitorRow, MonitorSource } from '../monitors.tables.ts';

export interface CycleReport {
  cycle: number;
  /** Listing requests made (subreddit look-ups not counted). */
  requests: number;
  /** New things read. */
  items: number;
  /** Things left out as impossible (another subreddit's, the wrong kind, dated in the future): logged. */
  ignored: number;
  /** Groups of subreddits left for the next cycle because this one's share of the budget was spent. */
  deferred: number;
  stored: number;
  gaps: number;
  errors: number;
}

/** How stale a watched subreddit's state (private, banned, …) may get: one look-up per 100 names this often. */
export const STATE_MAX_AGE_MS = 10 * 60 * 1000;
/** Look-up requests one cycle may make at most: thousands of new names are learnt over several cycles and never hold up the listings. */
export const STATE_REQUESTS_PER_CYCLE = 10;

export function createMonitorPoller(deps: {
  db: Database;
  reddit: Pick<RedditClient, 'listing'> | null;
  subreddits: Pick<SubredditsUsecases, 'lookup' | 'known' | 'record'>;
  delivery: MatchDelivery;
  /** The relevance judge's side of the poll (the delivery judges through it): its state is settled once per cycle. */
  judging: Pick<MatchJudging, 'settle'>;
  clock: () => Date;
  config: MonitorsConfig;
  prices: Prices;
  /** Listing requests one cycle may make (see requestsPerCycle in poller/poller.schedule.ts). */
  requestsPerCycle: number;
  /** Who holds the lease: unique per process. */
  holder: string;
  log: Pick<Logger, 'warn'>;
  /** What the site-wide stream covers now (stream/stream.serving.usecases.ts); absent while it is off: everything is polled. */
  streamCovers?: () => Promise<StreamCovers>;
}) {
  const { db, clock, config, holder, delivery } = deps;
  // Reads go through a counter of Reddit's answers, so a blocked or failing app is told once per change.
  const { reddit, settle: settleRedditApp } = watchRedditApp({ db, reddit: deps.reddit, log: deps.log, announce: delivery.announce });
  const repo = createPollerRepository(db);
  const creditPauses = createCreditResume({ db, reddit, subreddits: deps.subreddits, delivery, clock, config, prices: deps.prices });
  const intervalMs = config.intervalSeconds * 1000;
  // Covers the wait until this holder's next cycle; during a cycle a timer keeps renewing it.
  const leaseMs = 2 * intervalMs + 5_000;

  const indexOf = cachedIndexOfMonitors();

  /**
   * The states of the names about to be read, refreshed when stale, at most `maxLookups` look-ups
   * (100 names each) a cycle: the rest keep what is known and are looked up in later cycles, so no
   * number of new names can spend a cycle on look-ups. A subreddit that just became unavailable is announced.
   */
  async function statesOf(names: string[], known: Map<string, SubredditEntry>, monitors: MonitorRow[], maxLookups: number) {
    const states = new Map([...known].map(([name, entry]) => [name, entry.state]));
    const staleBefore = new Date(clock().getTime() - STATE_MAX_AGE_MS).toISOString();
    const checked = (name: string) => known.get(name)?.checkedAt ?? '';
    // Never seen first, then the longest unchecked: what nothing is known of is what most needs knowing.
    const due = names
      .filter((name) => checked(name) <= staleBefore)
      .sort((a, b) => checked(a).localeCompare(checked(b)))
      .slice(0, maxLookups * MAX_SUBREDDITS_PER_LISTING);
    if (due.length === 0) return { states, lookups: 0 };
    // Counted in full: a name /api/info leaves out costs an about page too, within the same bound.
    const lookups = maxLookups;
    let entries: SubredditEntry[];
    try {
      entries = await deps.subreddits.lookup(due, STATE_MAX_AGE_MS, { maxRequests: maxLookups });
    } catch (error) {
      if (readErrorOf(error) === null) throw error;
      return { states, lookups }; // Reddit is failing: the listings will say so; read with what is known
    }
    for (const entry of entries) {
      if (entry.state !== 'ok' && (states.get(entry.name) ?? 'ok') === 'ok') await unavailable(entry.name, entry.state, monitors);
      states.set(entry.name, entry.state);
    }
    return { states, lookups };
  }

  async function unavailable(name: string, state: SubredditEntry['state'], monitors: MonitorRow[]) {
    for (const monitor of monitors) {
      if (subredditsOf(monitor).includes(name)) await delivery.announce(monitor, 'monitor.health', { subreddit: `r/${name}`, state: stateOf({ state }) });
    }
  }

  /**
   * Reads the planned groups in order (every account's first round before anyone's second) until this
   * cycle's share of the budget is spent; the rest is read first next cycle, from its marks.
   */
  async function readAll(monitors: MonitorRow[], { polled, served }: StreamSplit, lastReads: LastReads, report: CycleReport, now: Date) {
    const at = now.toISOString();
    const known = new Map((await deps.subreddits.known(monitors.flatMap(subredditsOf))).map((entry) => [entry.name, entry]));
    // Only what the site-wide stream does not serve is listed (poller.serving.ts).
    const plan = planReads(polled, (name) => (known.get(name)?.state ?? 'ok') === 'ok', lastReads);
    // A group read by the last cycle may wait one cycle; one that already waited takes what it gets.
    const recently = new Date(now.getTime() - 1.5 * intervalMs).toISOString();
    // A served subreddit's state is still checked: the stream cannot tell a private one from a quiet one.
    const soon = [...new Set([...plan.slice(0, deps.requestsPerCycle).flatMap((group) => group.names), ...served.flatMap((s) => s.names)])];
    const { states, lookups } = await statesOf(soon, known, monitors, Math.max(1, Math.min(STATE_REQUESTS_PER_CYCLE, Math.floor(deps.requestsPerCycle / 10))));
    let budget = deps.requestsPerCycle - lookups;
    const reads: ReadGroup[] = [];
    for (const [index, group] of plan.entries()) {
      if (budget <= 0) {
        report.deferred = plan.length - index;
        break;
      }
      const { source } = group;
      const names = group.names.filter((name) => (states.get(name) ?? 'ok') === 'ok');
      if (names.length === 0) continue;
      const marks = await repo.marks(names, source);
      const since = sinceOf(names.filter((name) => !marks.has(name)), source, polled);
      try {
        const pages = Math.min(config.maxPagesPerCycle, budget);
        const read = await readGroup(reddit!, { names, source, marks, since, now }, pages);
        report.requests += read.requests;
        budget -= read.requests;
        report.ignored += read.ignored.foreign + read.ignored.implausible;
        const fresh = names.every((name) => (lastReads[source].get(name) ?? '') >= recently);
        if (fresh && !read.refused && !read.complete && pages < config.maxPagesPerCycle && read.requests === pages) {
          // Cut short by this cycle's share, not by the page cap: what was read is delivered now, but the
          // marks stay and no gap is recorded; the next cycle reads it first, from those marks. Only once:
          // a group cut again records its gap and moves on, so a lasting shortage cannot hold it back for ever.
          report.deferred++;
          reads.push({ ...read, names, source, marks, since, cut: true });
        } else if (read.refused) {
          // One name left in the group and Reddit refuses it: the directory learns, the monitors hear.
          await deps.subreddits.record(names[0]!, read.refused);
          await unavailable(names[0]!, read.refused, monitors);
        } else reads.push({ ...read, names, source, marks, since });
      } catch (error) {
        // This server's own budget is spent: the rest is read next cycle, which starts later (the interval stretches).
        if (error instanceof RedditBudgetExhaustedError) return reads;
        const code = readErrorOf(error);
        if (code === null) throw error;
        report.errors++;
        budget--;
        await repo.recordError(names, source, code, at);
        if (code === 'blocked') return reads;
      }
    }
    return reads;
  }

  /** Moves the marks and records the gaps, only while this holder still has this cycle (`fence`). */
  async function commit(fence: Fence, reads: ReadGroup[], served: StreamSplit['served'], gaps: GapRow[], at: string): Promise<boolean> {
    return transaction(db, async (trx) => {
      if (!(await fence(trx))) return false;
      const fenced = createPollerRepository(trx);
      for (const read of reads) if (!read.cut) await fenced.advance(read.names, read.source, read, at);
      for (const { names, source, to } of served) await fenced.coverByStream(names, source, to, at);
      for (const gap of gaps) await fenced.insertGap({ ...gap, now: at });
      return true;
    });
  }

  async function work(cycle: number, report: CycleReport) {
    const now = clock();
    const at = now.toISOString();
    const fence = (trx: Kysely<Tables>) => createPollerRepository(trx).renew(holder, cycle, clock().getTime(), leaseMs);
    // Real time, not the clock's: it bounds waiting on the model. One interval, so a match is delivered within two.
    const poll: PollContext = { fence, judgeUntil: performance.now() + intervalMs };
    await repo.resumeDueDailyCaps(at);
    await creditPauses.resumeFunded(at);
    const monitors = await repo.activeMonitors();
    if (monitors.length > 0 && reddit) {
      const lastReads = await repo.lastReads();
      const split = splitByStream(monitors, (await deps.streamCovers?.()) ?? {}, lastReads);
      const reads = await readAll(monitors, split, lastReads, report, now);
      // Not per item: a broken or hostile upstream could send thousands.
      if (report.ignored > 0) deps.log.warn({ ignored: report.ignored, cycle }, 'listing items that cannot be right were left out (another subreddit, the wrong kind, or dated in the future)');
      await settleRedditApp(monitors, at);
      report.items = reads.reduce((sum, read) => sum + read.items.length, 0);
      const index = indexOf(monitors);
      const byId = new Map(monitors.map((m) => [m.id, m]));
      // A monitor that owes a stretch since a pause for credits gets its matches from its catch-up (below);
      // one over all of Reddit is the site-wide stream's alone (the poller read nothing for it).
      const current = monitors.filter((m) => isCaughtUp(m) && !isAllOfReddit(m));
      report.stored += await delivery.deliverAll(collectMatches(reads, current, index), current, poll.judgeUntil, fence);
      // A gap concerns the sources the poller reads: the stream served the others.
      const gaps = gapsOf(reads, split.polled.filter(isCaughtUp));
      if (await commit(fence, reads, split.served, gaps, at)) {
        report.gaps = gaps.length;
        for (const gap of gaps) {
          await delivery.announceGap(byId.get(gap.monitorId)!, gap);
        }
      }
      await creditPauses.catchUp(monitors, index, poll, report, deps.requestsPerCycle);
      await deps.judging.settle(monitors, at, delivery.announce);
    }
    await delivery.flush();
  }

  return leasedCycles({
    lease: repo,
    holder,
    clock,
    leaseMs,
    intervalMs,
    log: deps.log,
    what: 'monitors',
    report: (cycle): CycleReport => ({ cycle, requests: 0, items: 0, ignored: 0, deferred: 0, stored: 0, gaps: 0, errors: 0 }),
    work,
    // A cycle that left a gap was outrun by a burst: the next one starts at once (the budget still bounds it).
    again: (report) => report.gaps > 0,
  });
}

export type MonitorPoller = ReturnType<typeof createMonitorPoller>;
