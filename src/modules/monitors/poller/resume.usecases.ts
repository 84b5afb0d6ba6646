/**
 * Nothing lost to a pause for credits. A monitor that paused because its account could not
 * pay remembers where it stopped (`resume_from`, the `created_at` of the first match left out, see
 * poller/poller.delivery.ts). Each poller cycle resumes those whose account can pay for a match again, and
 * catches up every active monitor that still owes a stretch: it reads the monitor's own subreddits
 * back to `resume_from` (as far as Reddit's listings reach), stores what matches oldest first through
 * the normal delivery (the unique (monitor, thing) key skips what is already stored), records a gap
 * for what the listing no longer reached, and only then, fenced by the poller lease, clears
 * `resume_from`. A crash before that does the catch-up again; a balance that runs out again pauses
 * the monitor with a new `resume_from`.
 */
import type { Kysely } from 'kysely';
import type { MonitorsConfig, Prices } from '../../../shared/config/config.ts';
import { transaction, type Database, type Tables } from '../../../shared/db/database.ts';
import type { RedditClient } from '../../../integrations/reddit/reddit.client.ts';
import { RedditBlockedError, RedditBudgetExhaustedError, RedditUnavailableError } from '../../../integrations/reddit/reddit.errors.ts';
import { canPayMatch } from '../../credits/credits.prices.ts';
import { creditsIn } from '../../credits/credits.usecases.ts';
import type { SubredditsUsecases } from '../../subreddits/subreddits.usecases.ts';
import { collectMatches, subredditsOf, type GapRow, type ReadGroup } from './poller.cycle.ts';
import type { MatchDelivery, PollContext } from './poller.delivery.ts';
import type { MatchIndex } from '../../../shared/matching/keywords.ts';
import { createPollerRepository } from './poller.repository.ts';
import { readGroup, type Mark } from './poller.reading.ts';
import { allOfRedditGaps, catchUpGaps, catchUpGroups } from './resume.ts';
import { isAllOfReddit } from '../monitors.scope.ts';
import type { MonitorRow } from '../monitors.tables.ts';

/** What a catch-up adds to the cycle's report. */
interface Tally {
  requests: number;
  stored: number;
}

export function createCreditResume(deps: {
  db: Database;
  reddit: Pick<RedditClient, 'listing'> | null;
  subreddits: Pick<SubredditsUsecases, 'known'>;
  delivery: MatchDelivery;
  clock: () => Date;
  config: Pick<MonitorsConfig, 'maxPagesPerCycle'>;
  prices: Prices;
}) {
  const { db, delivery, config, prices } = deps;
  const repo = createPollerRepository(db);

  /**
   * Resumes every monitor paused for credits whose account can now pay for one match (a grant, a
   * purchase), each with one guarded update, so an owner's change made meanwhile stands; each resume
   * is announced. The balance is read once per account.
   */
  async function resumeFunded(at: string): Promise<void> {
    const balances = new Map<string, number>();
    for (const monitor of await repo.creditPaused()) {
      let balance = balances.get(monitor.account_id);
      if (balance === undefined) {
        balance = await creditsIn(db).spendableBalance(monitor.account_id);
        balances.set(monitor.account_id, balance);
      }
      if (!canPayMatch(prices, balance) || !(await repo.resumeForCredits(monitor.id, at))) continue;
      await delivery.announce(monitor, 'monitor.resumed', { reason: 'credits_available', from: monitor.resume_from ?? at });
    }
  }

  /**
   * The monitor's own subreddits read back to `from`; `later` when Reddit failed (the next cycle tries
   * again), `stop` when no one can read this cycle (the budget is spent, or the app is blocked).
   */
  async function readBack(monitor: MonitorRow, from: string, tally: Tally): Promise<ReadGroup[] | 'later' | 'stop'> {
    const states = new Map((await deps.subreddits.known(subredditsOf(monitor))).map((entry) => [entry.name, entry.state]));
    const reads: ReadGroup[] = [];
    for (const group of catchUpGroups(monitor, states)) {
      const marks = new Map<string, Mark>(); // none: read back to `from` alone
      try {
        const read = await readGroup(deps.reddit!, { ...group, marks, since: from, now: deps.clock() }, config.maxPagesPerCycle);
        tally.requests += read.requests;
        // A subreddit that became unavailable has nothing to give; the regular read tells the monitor.
        if (!read.refused) reads.push({ ...read, ...group, marks, since: from });
      } catch (error) {
        if (error instanceof RedditBudgetExhaustedError || error instanceof RedditBlockedError) return 'stop';
        if (error instanceof RedditUnavailableError) return 'later';
        throw error;
      }
    }
    return reads;
  }

  /** Records the gaps and, unless the monitor paused again, that nothing is owed; false when the lease was lost. */
  async function commit(monitor: MonitorRow, from: string, done: boolean, gaps: GapRow[], fence: PollContext['fence']): Promise<boolean> {
    const at = deps.clock().toISOString();
    return transaction(db, async (trx) => {
      const fenced = createPollerRepository(trx);
      if (!(await fence(trx))) return false;
      // Deleted meanwhile: nothing to record (PostgreSQL would refuse a gap of a monitor that is gone).
      if (!(await fenced.monitor(monitor.id))) return false;
      for (const gap of gaps) await fenced.insertGap({ ...gap, now: at });
      if (done) await fenced.caughtUp(monitor.id, from);
      return true;
    });
  }

  /**
   * Catches up each of `monitors` (this cycle's active ones) that owes a stretch. It runs after the
   * cycle's regular read, so what it reads reaches at least as far as the marks that read moved:
   * the regular reads that follow take over from there.
   */
  async function catchUp(monitors: MonitorRow[], index: MatchIndex, poll: PollContext, tally: Tally, allowance: number): Promise<void> {
    if (!deps.reddit) return;
    for (const monitor of monitors) {
      const from = monitor.resume_from;
      if (from === null) continue;
      // The cycle's share of the budget is spent (`tally` counts the regular reads too): the rest catch up next cycle.
      if (tally.requests >= allowance) return;
      const reads = await readBack(monitor, from, tally);
      if (reads === 'stop') return;
      if (reads === 'later') continue;
      const found = collectMatches(reads, [{ ...monitor, watch_from: from }], index).get(monitor.id) ?? [];
      const { stored, paused } = await delivery.store(monitor, await delivery.judge(monitor, found, poll.judgeUntil), poll.fence);
      tally.stored += stored;
      if (paused) await delivery.announce(monitor, 'monitor.paused', { reason: paused });
      // All of Reddit is never read back (no listing holds it): the stretch it owes is a gap, said so, never silently.
      const gaps = isAllOfReddit(monitor) ? allOfRedditGaps(monitor, from, deps.clock().toISOString()) : catchUpGaps(reads, monitor, from);
      if (!(await commit(monitor, from, paused === null, gaps, poll.fence))) continue;
      for (const gap of gaps) {
        await delivery.announceGap(monitor, gap);
      }
    }
  }

  return { resumeFunded, catchUp };
}
