/**
 * The site-wide stream (issue 45; docs/api/monitors-stream.md): one reader of every new post and
 * comment on Reddit for the whole server, however many instances run (a lease lets one read at a
 * time). About once a minute it reads the newest id of each kind (the heads of `/r/all/new` and
 * `/r/all/comments`) and in between estimates it (stream.frontier.ts); each cycle it walks the ids
 * since its position in full requests of 100 through `/api/info` (stream.cycle.ts planCycle), and hands
 * every item to the poller's matcher, storage and charging (poller.cycle.ts collectMatches,
 * poller.delivery.ts): a match is stored and charged once, whoever reads it first. Ids an answer left
 * out are asked once more after a delay, then counted unavailable. Comments get their post's title
 * (stream.titles.ts), which `title:` rules need and `/api/info` leaves out. Its requests are the budget's
 * STREAM_CONSUMER, held to REDDIT_STREAM_SHARE. Only once the matches are stored do its position,
 * pending ids and coverage move, in one transaction fenced by the lease: a reader killed at any moment
 * reads the same ids again, and the unique (monitor, thing) row keeps anything from counting twice.
 */
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import { transaction, type Database, type Tables } from '../../../shared/db/database.ts';
import { leaseFor } from '../../../shared/jobs/leases.ts';
import type { RedditClient } from '../../../integrations/reddit/reddit.client.ts';
import { STREAM_CONSUMER } from '../../../integrations/reddit/reddit.budget.ts';
import { RedditBudgetExhaustedError } from '../../../integrations/reddit/reddit.errors.ts';
import type { RedditItem } from '../../../integrations/reddit/reddit.types.ts';
import { cachedIndexOfMonitors, collectMatches } from '../poller/poller.cycle.ts';
import type { MatchDelivery } from '../poller/poller.delivery.ts';
import { isCaughtUp } from '../poller/resume.ts';
import { readErrorOf } from '../monitors.reddit-app.ts';
import type { MonitorRow } from '../monitors.tables.ts';
import { asStreamReads, needsStreamTitles } from '../monitors.stream-serving.ts';
import { createStreamRepository } from './stream.repository.ts';
import { createPollerRepository } from '../poller/poller.repository.ts';
import { leasedCycles, PollerLeaseLost } from '../leased-cycles.ts';
import { gapsOfJumps, headOf, jumpOf, KINDS, SOURCE_OF, LATENCY_BOUND_MS, planCycle, settle, STREAM_INTERVAL_SECONDS, type Head, type Jump, type Position, type Reach } from './stream.cycle.ts';
import { estimateOf, frontierAfterHead, frontierAfterWalk, headsDue, type Frontier } from './stream.frontier.ts';
import type { StreamKind } from './stream.tables.ts';
import type { StreamRing } from './stream.ring.ts';
import { createTitleBook, TITLE_REQUESTS_PER_CYCLE, untitled } from './stream.titles.ts';

export interface StreamReport {
  cycle: number;
  /** Reddit requests made: the two heads (about once a minute) and the /api/info batches. */
  requests: number;
  asked: number;
  returned: number;
  unavailable: number;
  skipped: number;
  stored: number;
  errors: number;
  /** Requests kept back from the walk for post titles (stream.titles.ts) and not needed: the share was not spent. */
  held: number;
}

/** Requests one cycle may make: the stream's calls a minute over the cycles of a minute, at least the two heads and one batch. */
export const streamRequestsPerCycle = (perMinute: number) => Math.max(3, Math.floor((perMinute * STREAM_INTERVAL_SECONDS) / 60));

export function createMonitorStream(deps: {
  db: Database;
  reddit: Pick<RedditClient, 'listing' | 'info'>;
  delivery: MatchDelivery;
  clock: () => Date;
  /** The stream's own calls a minute (its share of REDDIT_REQUESTS_PER_MINUTE). */
  perMinute: number;
  maxLagSeconds: number;
  /** Who holds the lease: unique per process. */
  holder: string;
  log: Pick<Logger, 'warn'>;
  /** The recent items kept in memory for monitors' previews (stream.ring.ts); every item read goes in. */
  ring: StreamRing;
}) {
  const { db, clock, holder, delivery, reddit } = deps;
  const repo = createStreamRepository(db);
  const intervalMs = STREAM_INTERVAL_SECONDS * 1000;
  const leaseMs = leaseFor(2 * intervalMs);
  const requestsPerCycle = streamRequestsPerCycle(deps.perMinute);
  // Where each kind's newest id is, between head readings: in memory, as a restart reads the heads again.
  const frontiers = new Map<StreamKind, Frontier>();
  let headsReadMs: number | null = null;
  const titles = createTitleBook();

  const indexOf = cachedIndexOfMonitors();

  async function heads(report: StreamReport): Promise<Map<StreamKind, Head>> {
    const found = new Map<StreamKind, Head>();
    for (const kind of KINDS) {
      const answer = await reddit.listing({ subreddits: ['all'], source: SOURCE_OF[kind], after: null, consumer: STREAM_CONSUMER });
      report.requests++;
      const head = answer.ok ? headOf(answer.items, kind) : null;
      if (head) found.set(kind, head);
    }
    return found;
  }

  /**
   * The posts and comments read, through the poller's matcher, stored and charged as the poller does.
   * A comment whose post's title is unknown is not matched for a rule with a `title:` term.
   */
  async function deliver(items: RedditItem[], monitors: MonitorRow[], fence: (trx: Kysely<Tables>) => Promise<boolean>, report: StreamReport) {
    if (monitors.length === 0 || items.length === 0) return;
    const caught = monitors.filter(isCaughtUp);
    const index = indexOf(monitors);
    const comments = items.filter((item) => item.type === 'comment');
    const reads = [
      { source: 'posts' as const, items: items.filter((item) => item.type === 'post') },
      { source: 'comments' as const, items: comments.filter((item) => !untitled(item)) },
    ];
    const found = collectMatches(reads, caught.map((m) => asStreamReads(m, 'titled')), index);
    const bare = collectMatches([{ source: 'comments', items: comments.filter(untitled) }], caught.map((m) => asStreamReads(m, 'untitled')), index);
    for (const [monitorId, more] of bare) found.set(monitorId, [...(found.get(monitorId) ?? []), ...more]);
    report.stored += await delivery.deliverAll(found, monitors, performance.now() + intervalMs, fence);
  }

  /**
   * One `/api/info` request of the stream's, counted; null when this cycle must stop asking: its share
   * of the minute is spent, or Reddit fails (counted as an error). Any other error is a bug and thrown.
   */
  async function ask(fullnames: string[], report: StreamReport): Promise<RedditItem[] | null> {
    try {
      const answer = await reddit.info(fullnames, STREAM_CONSUMER);
      report.requests++;
      return answer.items;
    } catch (error) {
      if (!(error instanceof RedditBudgetExhaustedError) && readErrorOf(error) === null) throw error;
      if (!(error instanceof RedditBudgetExhaustedError)) report.errors++;
      return null;
    }
  }

  /**
   * The items with their comments' post titles: those of posts the stream read, and, when `needed`,
   * those of older posts asked for, 100 to a request, with what is left of the cycle's share.
   */
  async function withTitles(items: RedditItem[], needed: boolean, report: StreamReport): Promise<RedditItem[]> {
    titles.remember(items);
    const read = titles.titled(items);
    if (!needed) return read;
    const missing = titles.missing(read);
    for (let i = 0; i < missing.length && report.requests < requestsPerCycle; i += 100) {
      const posts = await ask(missing.slice(i, i + 100), report);
      if (posts === null) break;
      titles.remember(posts);
    }
    return titles.titled(read);
  }

  async function work(cycle: number, report: StreamReport) {
    const now = clock();
    const at = now.toISOString();
    const fence = (trx: Kysely<Tables>) => createStreamRepository(trx).renew(holder, cycle, clock().getTime(), leaseMs);
    const found = headsDue(frontiers, KINDS, headsReadMs, now) ? await heads(report) : new Map<StreamKind, Head>();
    if (found.size === KINDS.length) headsReadMs = now.getTime();
    for (const [kind, head] of found) frontiers.set(kind, frontierAfterHead(frontiers.get(kind), head));
    const positions = await repo.positions();
    const jumps: Jump[] = [];
    // Where the walk starts afresh, from the head's time: what the poller may leave to the stream begins there.
    const restarts = new Map<StreamKind, string>();
    for (const [kind, head] of found) {
      const position = positions.get(kind);
      // Never read before: the stream starts at the head; what was created before it started is not its.
      if (!position) {
        positions.set(kind, { readTo: head.id, readToAt: head.at });
        restarts.set(kind, head.at);
      } else {
        const skip = jumpOf(kind, position, head, deps.maxLagSeconds);
        if (skip) {
          jumps.push(skip.jump);
          positions.set(kind, skip.position);
          restarts.set(kind, head.at);
        }
      }
    }
    const reach = new Map<StreamKind, Reach>();
    for (const [kind, position] of positions) {
      // Another instance may have read since this one's frontier: its position is known to exist too.
      const frontier = frontiers.get(kind) && frontierAfterWalk(frontiers.get(kind)!, position.readTo, position.readToAt);
      if (frontier) reach.set(kind, { known: frontier.id, estimate: estimateOf(frontier, now) });
    }
    const monitors = await repo.activeMonitors();
    const needsTitles = monitors.some(needsStreamTitles);
    const walkRequests = Math.max(0, requestsPerCycle - report.requests - (needsTitles ? TITLE_REQUESTS_PER_CYCLE : 0));
    const due = await repo.due(at, walkRequests * 100);
    const overdue = (await repo.due(new Date(now.getTime() - LATENCY_BOUND_MS).toISOString(), 1)).length > 0;
    const plan = planCycle({ positions, reach, due, requests: walkRequests, now, overdue });
    const asked: string[][] = [];
    const returned = new Map<string, string>();
    const items: RedditItem[] = [];
    for (const request of plan.requests) {
      const answer = await ask(request, report);
      // The share of this minute is spent, or Reddit fails: what was asked is settled, the rest waits.
      if (answer === null) break;
      asked.push(request);
      const wanted = new Set(request);
      for (const item of answer) {
        // Only what was asked, once: an answer cannot add ids to the walk.
        if (!wanted.has(item.id) || returned.has(item.id)) continue;
        returned.set(item.id, item.created_at);
        items.push(item);
      }
    }
    const walked = report.requests;
    const read = await withTitles(items, needsTitles, report);
    report.held = needsTitles ? Math.max(0, TITLE_REQUESTS_PER_CYCLE - (report.requests - walked)) : 0;
    // A comment asked the first time whose post's title is still unknown waits for its second asking, as
    // an id left out of an answer does, so it is matched once, with the title; at the second, as it is.
    const deferred = new Set(needsTitles ? read.filter((item) => untitled(item) && !plan.retries.has(item.id)).map((item) => item.id) : []);
    for (const id of deferred) returned.delete(id);
    const matched = deferred.size === 0 ? read : read.filter((item) => !deferred.has(item.id));
    deps.ring.add(matched);
    const gaps = gapsOfJumps(jumps, monitors.filter(isCaughtUp));
    const settled = settle({ plan, asked, returned, positions: positions as Map<StreamKind, Position>, jumps, now });
    await deliver(matched, monitors, fence, report);
    const committed = await transaction(db, async (trx) => {
      if (!(await fence(trx))) return false;
      const fenced = createStreamRepository(trx);
      await fenced.savePositions(settled.positions, at);
      await fenced.walkedSince(restarts);
      await fenced.resolvePending(settled.resolved);
      await fenced.addPending(settled.pending);
      await fenced.addCoverage(settled.coverage);
      await fenced.addGaps(jumps, at);
      // The monitors' own gaps, as the poller records its own (its repository holds monitor_gaps).
      const monitorGaps = createPollerRepository(trx);
      for (const gap of gaps) await monitorGaps.insertGap({ ...gap, now: at });
      return true;
    });
    if (!committed) throw new PollerLeaseLost();
    for (const [kind, position] of settled.positions) {
      const frontier = frontiers.get(kind);
      if (frontier) frontiers.set(kind, frontierAfterWalk(frontier, position.readTo, position.readToAt));
    }
    for (const row of settled.coverage) {
      report.asked += row.asked;
      report.returned += row.returned;
      report.unavailable += row.unavailable;
      report.skipped += row.skipped;
    }
    const byId = new Map(monitors.map((monitor) => [monitor.id, monitor]));
    for (const gap of gaps) await delivery.announceGap(byId.get(gap.monitorId)!, gap);
    if (jumps.length > 0) deps.log.warn({ gaps: jumps.map((j) => ({ kind: j.kind, from: j.from.toString(36), to: j.to.toString(36) })) }, 'the stream fell too far behind and skipped ahead; the ids skipped are recorded as gaps');
    await delivery.flush();
  }

  const { runCycle, start } = leasedCycles({
    lease: repo,
    holder,
    clock,
    leaseMs,
    intervalMs,
    log: deps.log,
    what: 'stream',
    report: (cycle): StreamReport => ({ cycle, requests: 0, asked: 0, returned: 0, unavailable: 0, skipped: 0, stored: 0, errors: 0, held: 0 }),
    work,
    // The whole share spent: the stream is behind, and reads on at once (the budget still bounds it).
    again: (report) => report.requests + report.held >= requestsPerCycle,
  });

  /** Lets another instance take over at once (a test's "restart", or a clean shutdown). */
  const release = () => repo.release(holder);

  return { runCycle, start, release, ring: deps.ring };
}

export type MonitorStream = ReturnType<typeof createMonitorStream>;
