import type { Logger } from 'pino';
import type { DestinationsRepository } from './destinations.repository.ts';
import type { Send } from './destinations.senders.ts';
import type { DestinationKind, DestinationsTable } from './destinations.tables.ts';

/**
 * The published pace of each service, as the time between two messages to one destination (the
 * default of DESTINATION_PACE_MS): Slack about one a second per webhook (api.slack.com/docs/rate-limits),
 * Discord five per five seconds per webhook but about thirty a minute per channel (nanoblox/core#17,
 * delivery-2026.md), so one every two seconds; Telegram one a second per chat but twenty a minute per group
 * (core.telegram.org/bots/faq), so one every three seconds, which holds for both; a mailbox one a second.
 */
export const PACE_MS: Record<DestinationKind, number> = { slack: 1000, discord: 2000, telegram: 3000, email: 1000 };
/** Telegram's pace for the whole bot, about thirty a second across its chats (core.telegram.org/bots/faq): one send every 37 ms, 27 a second, so that jitter never makes 30 in one second. */
export const TELEGRAM_BOT_GAP_MS = 37;
/** How long a post waits for the service's answer. */
export const CHAT_TIMEOUT_MS = 10_000;
/** The longest wait a 429 is taken at its word for: a longer stated wait is cut to this and tried then. */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;
/** A wait for the pace up to this long is waited in the drainer; a longer one (a 429's) frees the worker and comes back. */
const INLINE_WAIT_MS = 5000;
/** The drainer's hold on a destination, renewed before each message; a dead drainer's ends by then. */
const DRAIN_LEASE_MS = 60_000;
/** A message in flight is due again after this if its drainer dies: sent at most once more (docs/api/destinations.md). */
const ATTEMPT_LEASE_MS = 60_000;
/** Messages one job sends before it hands the destination to a new job (so no lease is stretched for ever). */
const PER_DRAIN = 50;
/** Failures (5xx, no answer) before a message fails for good; 429s wait as told and are not counted as failures. */
export const MAX_FAILURES = 8;
const backoffMs = (failures: number) => Math.min(30_000 * 2 ** (failures - 1), 3_600_000);

const at = (ms: number) => new Date(ms).toISOString();

export interface DrainDeps {
  repo: DestinationsRepository;
  clock: () => Date;
  sleep: (ms: number) => Promise<void>;
  send: Send;
  paceMs: Record<DestinationKind, number>;
  /** Where its messages go, unsealed: the webhook URL, the address, the chat id. */
  openUrl: (destination: DestinationsTable) => string;
  requeue: (destinationId: string, startAfterSeconds?: number) => Promise<void>;
  /** Tells the owner, once: the drainer that switched the destination off calls it, no other. */
  announceOff: (destination: DestinationsTable, reason: string, offAt: string) => Promise<void>;
  log: Pick<Logger, 'info' | 'warn'>;
}

/**
 * Sends a destination's pending messages, oldest first, one drainer at a time (its lease), each no
 * sooner than the destination's pace allows. What the channel answers decides: sent; a 429 moves the
 * pace to the stated time; a gone destination is switched off; a failure is retried with backoff.
 * Every attempt is recorded. Another destination's drain runs in its own job: a slow one delays no other.
 */
export async function drainDestination(destinationId: string, deps: DrainDeps): Promise<void> {
  const { repo, clock } = deps;
  const start = clock().getTime();
  if (!(await repo.claimDrain(destinationId, at(start), at(start + DRAIN_LEASE_MS)))) {
    // Another drainer holds it: it sends what this job was queued for, and looks once more after it lets
    // go (below). Should it die instead, this job comes back when its lease is over, not every second.
    const destination = await repo.forDrain(destinationId);
    const held = destination?.draining_until ? Date.parse(destination.draining_until) - start : 0;
    if (destination && destination.status !== 'off') await deps.requeue(destinationId, Math.max(1, Math.ceil(held / 1000)));
    return;
  }
  const destination = (await repo.forDrain(destinationId))!;
  const url = deps.openUrl(destination);
  let nextSend = Date.parse(destination.next_send_at);
  let leaseUntil = start + DRAIN_LEASE_MS;
  /** Whether a message recorded while this drainer was letting go still needs a job. */
  let lookAgain = true;
  try {
    let attempts = 0;
    while (attempts < PER_DRAIN) {
      const row = await repo.nextPending(destinationId);
      if (!row) return;
      const now = clock().getTime();
      const due = Math.max(nextSend, Date.parse(row.next_attempt_at));
      if (due > now) {
        if (due - now > INLINE_WAIT_MS) {
          lookAgain = false;
          return void (await deps.requeue(destinationId, Math.ceil((due - now) / 1000)));
        }
        await deps.sleep(due - now);
        continue;
      }
      attempts += 1;
      // Renewed once half of it is gone, not before every message: each write waits its turn on SQLite's one connection.
      if (leaseUntil - now < DRAIN_LEASE_MS / 2) {
        leaseUntil = now + DRAIN_LEASE_MS;
        await repo.extendDrain(destinationId, at(leaseUntil));
      }
      if (!(await repo.claimAttempt(row, at(now + ATTEMPT_LEASE_MS)))) return;
      const outcome = await deps.send(destination, url, { id: row.id, subject: row.subject, message: JSON.parse(row.message) });
      const done = clock().getTime();
      // From the answer: the channel had this message before it answered, so the next reaches it a whole pace later
      // whatever the database or the event loop did in between.
      nextSend = done + deps.paceMs[destination.kind];
      const attempt = { attempted_at: at(now), status_code: outcome.status, answer: outcome.answer, duration_ms: done - now };
      if (outcome.outcome === 'sent') {
        await repo.recordAttempt(row.id, { ...attempt, error: null }, { status: 'sent', sent_at: at(done), receipt: outcome.messageId });
      } else if (outcome.outcome === 'rate_limited') {
        nextSend = Math.max(nextSend, done + outcome.retryAfterMs);
        await repo.recordAttempt(row.id, { ...attempt, error: `rate limited: retry after ${outcome.retryAfterMs} ms` }, { next_attempt_at: at(now) });
      } else if (outcome.outcome === 'gone') {
        await repo.recordAttempt(row.id, { ...attempt, error: outcome.reason }, { status: 'failed', error: outcome.reason });
        if (await repo.switchOff(destinationId, outcome.reason)) await deps.announceOff(destination, outcome.reason, at(done));
        deps.log.info({ destination_id: destinationId, reason: outcome.reason }, 'a destination is gone and was switched off');
        lookAgain = false;
        return;
      } else {
        const failures = row.failures + 1;
        const retry = outcome.retryable && failures < MAX_FAILURES;
        const failed = { status: 'failed' as const, error: outcome.retryable ? `${outcome.error} (${failures} times)` : outcome.error };
        await repo.recordAttempt(row.id, { ...attempt, error: outcome.error }, { failures, ...(retry ? { next_attempt_at: at(now + backoffMs(failures)) } : failed) });
      }
    }
    lookAgain = false;
    await deps.requeue(destinationId);
  } finally {
    await repo.release(destinationId, at(nextSend));
    // A message recorded after this drainer's last look found the lease taken and left it to this one.
    if (lookAgain && (await repo.nextPending(destinationId))) await deps.requeue(destinationId);
  }
}
