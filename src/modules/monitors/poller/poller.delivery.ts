/**
 * What happens to a monitor's new matches: judged first when the monitor has an intent
 * (poller/judging.usecases.ts), then stored and paid for in one transaction (never one without the
 * other), as many as the balance and the daily cap allow, oldest first; the monitor pauses when some
 * had to be left out. A match judged below the monitor's bar is stored as filtered: it costs the
 * judging only, does not count against the daily cap and is never sent by webhook. Webhooks go out from an outbox: each stored match names the delivery it
 * belongs to, so a crash between storing and sending sends the same delivery later, never a second.
 */
import type { Prices } from '../../../shared/config/config.ts';
import { canPayDraft, chargeFor, matchCost } from '../../credits/credits.prices.ts';
import { creditsIn } from '../../credits/credits.usecases.ts';
import { AppError } from '../../../shared/errors.ts';
import { idOf, newId } from '../../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../../shared/crypto/random.ts';
import type { Kysely } from 'kysely';
import { transaction, type Database, type Tables } from '../../../shared/db/database.ts';
import type { MonitorEventType } from '../../webhooks/webhooks.events.ts';
import type { WebhooksUsecases } from '../../webhooks/webhooks.usecases.ts';
import type { AlertsUsecases } from '../../destinations/alerts/alerts.usecases.ts';
import type { Found, GapRow } from './poller.cycle.ts';
import type { JudgedFound, MatchJudging, Verdict } from './judging.usecases.ts';
import { utcDayStart } from '../../../shared/calendar.ts';
import { createDeliveryRepository } from './delivery.repository.ts';
import { createPollerRepository } from './poller.repository.ts';
import { PollerLeaseLost } from '../leased-cycles.ts';
import type { MonitorRow, PausedReason } from '../monitors.tables.ts';
import { toMatchView } from '../monitors.view.ts';
import type { GenerateUsecases, PreparedDraft } from '../../generate/generate.usecases.ts';
import pLimit from 'p-limit';

/**
 * Renews the poller's lease inside the storing transaction, locking its row until the commit: matches
 * of one holder are committed before another can take over, so their storage order (what `?after=`
 * follows) is the order they became visible in.
 */
export type Fence = (trx: Kysely<Tables>) => Promise<boolean>;

/** The poll a store belongs to: its lease fence, and until when (performance.now() scale) the judge may take. */
export interface PollContext {
  fence: Fence;
  judgeUntil: number;
}

const UNJUDGED = { relevance: null, relevance_reason: null, judge_error: null, judge_model: null, judge_prompt: null, filtered: 0 };

/** The verdict's columns of a match row: none for a monitor without an intent, the error, or the score against the bar. */
function verdictColumns(verdict: Verdict | null, bar: number) {
  if (verdict === null) return UNJUDGED;
  if ('error' in verdict) return { ...UNJUDGED, judge_error: JSON.stringify(verdict.error) };
  const { score, reason, model, prompt } = verdict;
  return { relevance: score, relevance_reason: reason, judge_error: null, judge_model: model, judge_prompt: prompt, filtered: score < bar ? 1 : 0 };
}

/** Matches per monitor.matches delivery (at most; the OpenAPI document tells receivers). */
export const MATCHES_PER_DELIVERY = 100;
/** A charge refused because another move spent the balance between the look and the charge is tried again this often. */
const ATTEMPTS = 3;

const oldestFirst = (a: Found, b: Found) => a.item.created_at.localeCompare(b.item.created_at) || a.item.id.localeCompare(b.item.id);

export function createMatchDelivery(deps: {
  db: Database;
  clock: () => Date;
  random: RandomBytes;
  prices: Prices;
  webhooks: Pick<WebhooksUsecases, 'enqueue'>;
  judging: Pick<MatchJudging, 'judge'>;
  /** The reply drafts of monitors with draft_replies (generate's usecases). */
  drafts: Pick<GenerateUsecases, 'prepareForMatch' | 'write'>;
  /** Routes to Slack and Discord: run after each poll, so an instant alert does not wait for the worker's next 5-s pass. */
  alerts: Pick<AlertsUsecases, 'sendDue'>;
}) {
  const { db, clock, random, prices } = deps;
  const outbox = createDeliveryRepository(db);
  // Drafts are written by the model after their match's transaction commits, two at a time, and never
  // while the storing slot is held: the next monitor's matches do not wait for a model. `flush` waits for them.
  const writing = pLimit(2);
  let written: Promise<void>[] = [];

  /** Stores what can be paid for; returns how many were stored and why the monitor paused, if it did. */
  async function storeOnce(monitorId: string, found: JudgedFound[], now: Date, fence: Fence) {
    const drafts: PreparedDraft[] = [];
    const outcome = await transaction(db, async (trx) => {
      drafts.length = 0; // a retried transaction prepares its drafts again
      // First, so a poller that lost its lease stores nothing, and a new holder's lease waits for this commit.
      if (!(await fence(trx))) throw new PollerLeaseLost();
      const poller = createPollerRepository(trx);
      const monitor = await poller.monitor(monitorId);
      if (!monitor || monitor.status !== 'active') return { stored: 0, paused: null };
      // Delivered matches count against the daily cap; filtered ones do not (nobody sees them unasked).
      let room = monitor.max_matches_per_day === null ? Infinity : Math.max(0, monitor.max_matches_per_day - (await poller.matchesSince(monitorId, utcDayStart(now))));
      let balance = await creditsIn(trx).spendableBalance(monitor.account_id);
      const at = now.toISOString();
      const matches = createDeliveryRepository(trx);
      const counts = { stored: 0, delivered: 0, judged: 0 };
      let limit: PausedReason | null = null;
      let batch: string | null = null;
      let next = 0; // the first thing not stored: where a pause resumes from
      for (; next < found.length; next++) {
        const { item, keywords, verdict } = found[next]!;
        const columns = verdictColumns(verdict, Number(monitor.min_relevance));
        const judged = columns.relevance !== null;
        const filtered = columns.filtered === 1;
        if (!filtered && room <= 0) limit = 'daily_cap';
        else if (matchCost(prices, { judged, filtered }) > balance) limit = 'insufficient_credits';
        if (limit !== null) break;
        const id = newId('mat', now, random);
        if (monitor.webhook_url && !filtered && counts.delivered % MATCHES_PER_DELIVERY === 0) batch = idOf('msg', now, id.slice(-16));
        const inserted = await matches.insertMatch({
          id,
          monitor_id: monitorId,
          account_id: monitor.account_id,
          type: item.type,
          reddit_id: item.id,
          subreddit: `r/${item.subreddit}`,
          title: item.title,
          body: item.body,
          author: item.author,
          permalink: item.permalink,
          created_at: item.created_at,
          matched_keywords: JSON.stringify(keywords),
          found_at: at,
          ...columns,
          webhook_batch: filtered ? null : batch,
          notified_at: null,
        });
        // A re-read of a stored thing (after a crash) is skipped: it was paid for when it was stored.
        if (!inserted) continue;
        balance -= matchCost(prices, { judged, filtered });
        counts.stored++;
        if (judged) counts.judged++;
        if (!filtered) {
          counts.delivered++;
          room--;
          // A draft only when the account can pay for it too; the match is delivered either way.
          if (Number(monitor.draft_replies) === 1 && canPayDraft(prices, balance)) {
            const payer = { accountId: monitor.account_id, keyId: null, via: 'monitor' as const };
            const stored = { type: item.type, reddit_id: item.id, subreddit: `r/${item.subreddit}`, title: item.title, body: item.body, author: item.author, permalink: item.permalink, match_id: id };
            const draft = await deps.drafts.prepareForMatch(trx, payer, stored, monitor.draft_instructions);
            if (draft) {
              drafts.push(draft);
              balance -= draft.row.price;
            }
          }
        }
      }
      const purchase = { kind: 'monitor', id: monitorId, matches: counts.delivered, judged: counts.judged } as const;
      const price = chargeFor(prices, purchase);
      if (price > 0) await creditsIn(trx).charge({ accountId: monitor.account_id, keyId: null, price, purchase, at });
      // Paused only when something had to be left out, for the cap or for credits.
      const until = limit === 'daily_cap' ? utcDayStart(now, 1) : null;
      // Oldest first: everything from the first thing left out on is owed once the account can pay.
      const resumeFrom = limit === 'insufficient_credits' ? found[next]!.item.created_at : null;
      const paused = limit !== null && (await poller.pause(monitorId, limit, until, at, resumeFrom));
      return { stored: counts.stored, paused: paused ? limit : null };
    });
    written.push(...drafts.map((draft) => writing(() => deps.drafts.write(draft))));
    return outcome;
  }

  /** A monitor's new matches, oldest first, with their verdicts (judging.usecases.ts); a poll judges all its monitors at once. */
  const judge = (monitor: MonitorRow, found: Found[], judgeUntil: number): Promise<JudgedFound[]> =>
    deps.judging.judge(monitor, [...found].sort(oldestFirst), judgeUntil);

  /** Stores judged matches (from `judge`), one monitor at a time. */
  async function store(monitor: MonitorRow, judged: JudgedFound[], fence: Fence): Promise<{ stored: number; paused: PausedReason | null }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await storeOnce(monitor.id, judged, clock(), fence);
      } catch (error) {
        if (error instanceof PollerLeaseLost) throw error;
        // Deleted by its owner meanwhile (PostgreSQL refuses the matches of a monitor that is gone): nothing to store.
        if (!(await createPollerRepository(db).monitor(monitor.id))) return { stored: 0, paused: null };
        // The balance moved between the look and the charge (a scrape paid meanwhile): look again.
        const raced = error instanceof AppError && error.status === 402;
        if (!raced || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Every monitor's new matches of one read (collectMatches), as both readers deliver them: each monitor
   * judged at once (the judge bounds the model calls in flight) and stored as soon as its verdicts are
   * in, so a monitor without an intent never waits for the model; one store at a time, as each holds the
   * lease row until it commits. A monitor its store paused is announced. Answers how many were stored.
   */
  async function deliverAll(found: Map<string, Found[]>, monitors: MonitorRow[], judgeUntil: number, fence: Fence): Promise<number> {
    const byId = new Map(monitors.map((m) => [m.id, m]));
    const storing = pLimit(1);
    let total = 0;
    await Promise.all(
      [...found].map(async ([monitorId, matches]) => {
        const monitor = byId.get(monitorId)!;
        const judged = await judge(monitor, matches, judgeUntil);
        const { stored, paused } = await storing(() => store(monitor, judged, fence));
        total += stored;
        if (paused) await announce(monitor, 'monitor.paused', { reason: paused });
      }),
    );
    return total;
  }

  /** A monitor event to the monitor's own endpoint, if it has one. */
  async function announce(monitor: MonitorRow, type: MonitorEventType, data: Record<string, unknown>) {
    if (!monitor.webhook_url) return;
    await deps.webhooks.enqueue({
      accountId: monitor.account_id,
      scrapeId: null,
      url: monitor.webhook_url,
      type,
      data: { monitor_id: monitor.id, name: monitor.name, ...data },
    });
  }

  /** The `monitor.health` event of a stretch the poller could not read for this monitor. */
  const announceGap = (monitor: MonitorRow, gap: GapRow) =>
    announce(monitor, 'monitor.health', { gap: { source: gap.source, subreddits: gap.subreddits, from: gap.from, to: gap.to } });

  /** Sends every monitor.matches delivery stored but not yet enqueued, once the drafts begun for them are written. */
  async function flush(): Promise<number> {
    const pending = written;
    written = [];
    await Promise.all(pending);
    let sent = 0;
    for (;;) {
      const batches = await outbox.unsentBatches(50);
      if (batches.length === 0) break;
      for (const { webhook_batch: batch, monitor_id: monitorId } of batches) {
        const rows = await outbox.batch(batch!);
        const monitor = await createPollerRepository(db).monitor(monitorId);
        if (monitor?.webhook_url && rows.length > 0) {
          await deps.webhooks.enqueue({
            id: batch!,
            accountId: monitor.account_id,
            scrapeId: null,
            url: monitor.webhook_url,
            type: 'monitor.matches',
            data: { monitor_id: monitor.id, name: monitor.name, matches: rows.map(toMatchView) },
          });
          sent++;
        }
        await outbox.markNotified(batch!, clock().toISOString());
      }
    }
    // With their drafts written, the new matches also go to the destinations they are routed to: after
    // the webhooks, so a failing destination pass holds up no webhook (the worker's 5-s pass retries it).
    await deps.alerts.sendDue();
    return sent;
  }

  return { judge, store, deliverAll, announce, announceGap, flush };
}

export type MatchDelivery = ReturnType<typeof createMatchDelivery>;
