import type { Kysely } from 'kysely';
import { idOf } from '../../shared/crypto/ids.ts';
import { coalescedPasses } from '../../shared/jobs/passes.ts';
import type { Database, Tables } from '../../shared/db/database.ts';
import type { WebhookEventType } from '../webhooks/webhooks.events.ts';
import { createLowBalanceRepository, type LowBalance } from './credits.low-balance.repository.ts';

export const LOW_BALANCE_EVENT = 'credits.low' satisfies WebhookEventType;
/** Alerts read per query; a flush goes on until none is left. */
const BATCH = 100;

/** What the sender needs of the webhooks usecases: an enqueue that records one delivery per id. */
interface WebhookQueue {
  enqueue(event: { id: string; accountId: string; scrapeId: null; url: string; type: WebhookEventType; data: unknown }): Promise<string>;
}

/**
 * Low-balance alerts. `check` runs inside the transaction of every money move, after it:
 * one guarded statement flips the account's `low_balance_alerted` flag when the spendable balance
 * crosses its threshold, either way, and a crossing downwards writes one `low_balance_alerts` row, sent later.
 * The move has already locked the account's row (PostgreSQL) or taken the write lock (SQLite), so
 * concurrent moves see each other's flag: exactly one of them writes the alert of a crossing.
 */
export function lowBalanceIn(db: Kysely<Tables>) {
  const repo = createLowBalanceRepository(db);
  return {
    async check(accountId: string, at: string): Promise<void> {
      const flipped = await repo.flip(accountId);
      // Fell below: this crossing's one alert. Back at or above (or no threshold any more): the next fall is a new crossing.
      if (flipped?.low_balance_alerted === 1) {
        await repo.insertAlert({ accountId, available: Number(flipped.available), threshold: flipped.low_balance_threshold!, at });
      }
    },

    /** The spendable balance and the threshold while the first is below the second (the banner), else null. */
    status: (accountId: string): Promise<LowBalance | null> => repo.status(accountId),
  };
}

/**
 * The delivery of an alert has an id made from the alert's: enqueueing it twice (two flushes racing,
 * or a crash between the enqueue and marking the alert sent) records one delivery, so a receiver
 * never hears of one crossing twice. Same shape as other ids (time first), so the log sorts by time.
 */
export const deliveryIdOf = (alert: { id: number; created_at: string }) =>
  idOf('msg', new Date(alert.created_at), alert.id.toString(16).padStart(16, '0'));

/**
 * Sends the `credits.low` webhooks of the alerts that money moves wrote (see lowBalanceIn above)
 * to each account's own endpoint; an account without one has its alerts marked sent with nothing
 * delivered (the dashboard banner still shows). `flush` runs on a timer in the worker and after billable API calls.
 */
export function createLowBalanceAlerts(deps: { db: Database; webhooks: WebhookQueue; clock: () => Date }) {
  const { webhooks, clock } = deps;
  const repo = createLowBalanceRepository(deps.db);

  async function sendBatch(): Promise<number> {
    const alerts = await repo.unsent(BATCH);
    for (const alert of alerts) {
      const id = Number(alert.id);
      if (alert.webhook_url) {
        await webhooks.enqueue({
          id: deliveryIdOf({ id, created_at: alert.created_at }),
          accountId: alert.account_id,
          scrapeId: null,
          url: alert.webhook_url,
          type: LOW_BALANCE_EVENT,
          data: { available: alert.available, threshold: alert.threshold, crossed_at: alert.created_at },
        });
      }
      await repo.markSent(id, clock().toISOString());
    }
    return alerts.length;
  }

  async function sendAll() {
    while ((await sendBatch()) === BATCH);
  }

  return {
    /** Sends what is pending; a call during a pass waits for one more pass after it (shared/jobs/passes.ts). */
    flush: coalescedPasses(sendAll),
  };
}

export type LowBalanceAlerts = ReturnType<typeof createLowBalanceAlerts>;
