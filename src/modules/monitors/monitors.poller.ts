/**
 * The one reader behind every monitor. Each cycle it reads the newest posts and comments of the
 * union of the active monitors' subreddits, 100 subreddits per request, matches every new thing
 * against every monitor's keywords locally (one index), stores and charges the matches, and only
 * then moves the high-water marks: a process killed at any moment re-reads, and the unique
 * (monitor, thing) row keeps it from storing or charging anything twice. Reddit requests grow with
 * the subreddits and their traffic, never with monitors, keywords or accounts.
 */
import type { Logger } from 'pino';
import type { MonitorsConfig } from '../../shared/config/config.ts';
import type { Kysely } from 'kysely';
import { transaction, type Database, type Tables } from '../../shared/db/database.ts';
import type { RedditClient } from '../../integrations/reddit/reddit.client.ts';
import { RedditBlockedError, RedditBudgetExhaustedError, RedditUnavailableError } from '../../integrations/reddit/reddit.errors.ts';
import { MAX_SUBREDDITS_PER_LISTING, chunk } from '../../integrations/reddit/reddit.query.ts';
import type { SubredditEntry, SubredditsUsecases } from '../subreddits/subreddits.usecases.ts';
import type { MatchDelivery } from './monitors.delivery.ts';
import { stateOf } from './monitors.health.ts';
import { buildKeywordIndex, type KeywordIndex } from './monitors.matcher.ts';
import { createPollerRepository, PollerLeaseLost } from './monitors.poller.repository.ts';
import { collectMatches, gapsOf, sinceOf, subredditsOf, watchedNames, type GapRow, type ReadGroup } from './monitors.cycle.ts';
import { readGroup } from './monitors.reading.ts';
import type { MonitorRow, MonitorSource } from './monitors.tables.ts';

export interface CycleReport {
  cycle: number;
  /** Listing requests made (subreddit look-ups not counted). */
  requests: number;
  /** New things read. */
  items: number;
  stored: number;
  gaps: number;
  errors: number;
}

/** How stale a watched subreddit's state (private, banned, …) may get: one look-up per 100 names this often. */
export const STATE_MAX_AGE_MS = 10 * 60 * 1000;
/** Look-up requests one cycle may make: thousands of new names are learnt over several cycles and never hold up the listings. */
export const STATE_REQUESTS_PER_CYCLE = 10;
const SOURCES: MonitorSource[] = ['posts', 'comments'];

/** What Reddit's failure is called in a monitor's health; null: not Reddit's failure. */
function errorCode(error: unknown): 'rate_limited' | 'blocked' | 'unavailable' | null {
  if (error instanceof RedditBlockedError) return 'blocked';
  if (error instanceof RedditUnavailableError) return error.upstreamStatus === 429 ? 'rate_limited' : 'unavailable';
  return null;
}

export function createMonitorPoller(deps: {
  db: Database;
  reddit: Pick<RedditClient, 'listing'> | null;
  subreddits: Pick<SubredditsUsecases, 'lookup' | 'known' | 'record'>;
  delivery: MatchDelivery;
  clock: () => Date;
  config: MonitorsConfig;
  /** Who holds the lease: unique per process. */
  holder: string;
  log: Pick<Logger, 'warn'>;
}) {
  const { db, reddit, clock, config, holder, delivery } = deps;
  const repo = createPollerRepository(db);
  const intervalMs = config.intervalSeconds * 1000;
  // Covers the wait until this holder's next cycle; during a cycle a timer keeps renewing it.
  const leaseMs = 2 * intervalMs + 5_000;

  // Building the index over 10,000 keywords takes a few hundred ms: it is kept while no active monitor changed.
  let cached: { key: string; index: KeywordIndex } | null = null;
  function indexOf(monitors: MonitorRow[]): KeywordIndex {
    const key = monitors.map((m) => `${m.id}@${m.updated_at}`).join(',');
    if (cached?.key !== key) {
      const rules = monitors.map((m) => ({
        monitorId: m.id,
        keywords: JSON.parse(m.keywords) as string[],
        excludeKeywords: JSON.parse(m.exclude_keywords) as string[],
        mode: m.match_mode,
      }));
      cached = { key, index: buildKeywordIndex(rules) };
    }
    return cached.index;
  }

  /** The watched subreddits' states, refreshed when stale; a subreddit that just became unavailable is announced. */
  async function statesOf(names: string[], monitors: MonitorRow[]): Promise<Map<string, SubredditEntry['state']>> {
    const before = new Map((await deps.subreddits.known(names)).map((entry) => [entry.name, entry.state]));
    let entries: SubredditEntry[];
    try {
      entries = await deps.subreddits.lookup(names, STATE_MAX_AGE_MS, { maxRequests: STATE_REQUESTS_PER_CYCLE });
    } catch (error) {
      if (errorCode(error) === null) throw error;
      return before; // Reddit is failing: the listings will say so; read with what is known
    }
    for (const entry of entries) {
      if (entry.state !== 'ok' && (before.get(entry.name) ?? 'ok') === 'ok') await unavailable(entry.name, entry.state, monitors);
    }
    return new Map(entries.map((entry) => [entry.name, entry.state]));
  }

  async function unavailable(name: string, state: SubredditEntry['state'], monitors: MonitorRow[]) {
    for (const monitor of monitors) {
      if (subredditsOf(monitor).includes(name)) await delivery.announce(monitor, 'monitor.health', { subreddit: `r/${name}`, state: stateOf({ state }) });
    }
  }

  async function readAll(monitors: MonitorRow[], report: CycleReport, at: string) {
    const watched = watchedNames(monitors);
    const states = await statesOf([...new Set([...watched.posts, ...watched.comments])], monitors);
    const reads: ReadGroup[] = [];
    for (const source of SOURCES) {
      const names = [...watched[source]].filter((name) => (states.get(name) ?? 'ok') === 'ok').sort();
      for (const names100 of chunk(names, MAX_SUBREDDITS_PER_LISTING)) {
        const marks = await repo.marks(names100, source);
        const since = sinceOf(names100.filter((name) => !marks.has(name)), source, monitors);
        try {
          const read = await readGroup(reddit!, { names: names100, source, marks, since }, config.maxPagesPerCycle);
          report.requests += read.requests;
          if (read.refused) {
            // One name left in the group and Reddit refuses it: the directory learns, the monitors hear.
            await deps.subreddits.record(names100[0]!, read.refused);
            await unavailable(names100[0]!, read.refused, monitors);
          } else reads.push({ ...read, names: names100, source, marks, since });
        } catch (error) {
          // This server's own budget is spent: the rest is read next cycle, which starts later (the interval stretches).
          if (error instanceof RedditBudgetExhaustedError) return reads;
          const code = errorCode(error);
          if (code === null) throw error;
          report.errors++;
          await repo.recordError(names100, source, code, at);
          if (code === 'blocked') return reads;
        }
      }
    }
    return reads;
  }

  /** Moves the marks and records the gaps, only while this holder still has this cycle. */
  async function commit(cycle: number, reads: ReadGroup[], gaps: GapRow[], at: string): Promise<boolean> {
    return transaction(db, async (trx) => {
      const fenced = createPollerRepository(trx);
      if (!(await fenced.renew(holder, cycle, clock().getTime(), leaseMs))) return false;
      for (const read of reads) await fenced.advance(read.names, read.source, read.top, at);
      for (const gap of gaps) await fenced.insertGap({ ...gap, now: at });
      return true;
    });
  }

  async function work(cycle: number, report: CycleReport) {
    const at = clock().toISOString();
    const fence = (trx: Kysely<Tables>) => createPollerRepository(trx).renew(holder, cycle, clock().getTime(), leaseMs);
    await repo.resumeDueDailyCaps(at);
    const monitors = await repo.activeMonitors();
    if (monitors.length > 0 && reddit) {
      const reads = await readAll(monitors, report, at);
      report.items = reads.reduce((sum, read) => sum + read.items.length, 0);
      const index = indexOf(monitors);
      const byId = new Map(monitors.map((m) => [m.id, m]));
      for (const [monitorId, found] of collectMatches(reads, monitors, index)) {
        const monitor = byId.get(monitorId)!;
        const { stored, paused } = await delivery.store(monitor, found, fence);
        report.stored += stored;
        if (paused) await delivery.announce(monitor, 'monitor.paused', { reason: paused });
      }
      const gaps = gapsOf(reads, monitors);
      if (await commit(cycle, reads, gaps, at)) {
        report.gaps = gaps.length;
        for (const gap of gaps) {
          await delivery.announce(byId.get(gap.monitorId)!, 'monitor.health', { gap: { source: gap.source, subreddits: gap.subreddits, from: gap.from, to: gap.to } });
        }
      }
    }
    await delivery.flush();
  }

  /** One cycle, if this instance holds (or can take) the lease; null when another instance polls. */
  async function cycleOnce(): Promise<CycleReport | null> {
    const cycle = await repo.acquire(holder, clock().getTime(), leaseMs);
    if (cycle === null) return null;
    const report: CycleReport = { cycle, requests: 0, items: 0, stored: 0, gaps: 0, errors: 0 };
    const keepAlive = setInterval(() => void repo.renew(holder, cycle, clock().getTime(), leaseMs).catch(() => undefined), leaseMs / 3);
    keepAlive.unref();
    try {
      await work(cycle, report);
    } catch (error) {
      // Another instance took over while this one was slow: it reads from the marks this one left.
      if (!(error instanceof PollerLeaseLost)) throw error;
    } finally {
      clearInterval(keepAlive);
    }
    return report;
  }

  // Cycles of one process run one after another (the worker's timer and a test's call share one holder).
  let last: Promise<unknown> = Promise.resolve();
  function runCycle(): Promise<CycleReport | null> {
    const next = last.catch(() => undefined).then(cycleOnce);
    last = next;
    return next;
  }

  /** Cycles every interval (back to back while a cycle takes longer, or left a gap) until the returned stop is called. */
  function start(): () => void {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const loop = async () => {
      const started = Date.now();
      const report = await runCycle().catch((error: unknown) => {
        deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'a monitors cycle failed; the next one retries');
        return null;
      });
      // A cycle that left a gap was outrun by a burst: the next one starts at once (the budget still bounds it).
      const wait = report && report.gaps > 0 ? 0 : Math.max(0, intervalMs - (Date.now() - started));
      if (!stopped) timer = setTimeout(loop, wait);
    };
    timer = setTimeout(loop, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
      void repo.release(holder).catch(() => undefined);
    };
  }

  return { runCycle, start };
}

export type MonitorPoller = ReturnType<typeof createMonitorPoller>;
