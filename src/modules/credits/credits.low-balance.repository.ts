import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';
import { spendable } from './credits.repository.ts';

export interface LowBalance {
  available: number;
  threshold: number;
}

/**
 * An account's low-balance flag (`accounts.low_balance_alerted`) and the alerts of its crossings
 * (`low_balance_alerts`). Works on a database or a transaction: the check of a money move runs in
 * the move's own (see credits.low-balance.usecases.ts).
 */
export const createLowBalanceRepository = (db: Kysely<Tables>) => ({
  /**
   * One guarded statement: flips the flag when the spendable balance crossed the threshold, either
   * way, and returns the flag it set with the balance and threshold; undefined when nothing crossed.
   * It matches only when the flag must flip, so the usual move (no threshold, or no crossing) costs
   * one indexed no-op update.
   */
  flip(accountId: string) {
    const below = sql<number>`case when low_balance_threshold is not null and ${spendable} < low_balance_threshold then 1 else 0 end`;
    return db
      .updateTable('accounts')
      .set({ low_balance_alerted: below })
      .where('id', '=', accountId)
      .where('low_balance_alerted', '<>', below)
      .returning(['low_balance_alerted', spendable.as('available'), 'low_balance_threshold'])
      .executeTakeFirst();
  },

  async insertAlert(alert: { accountId: string; available: number; threshold: number; at: string }): Promise<void> {
    await db
      .insertInto('low_balance_alerts')
      .values({ account_id: alert.accountId, available: alert.available, threshold: alert.threshold, created_at: alert.at, sent_at: null })
      .execute();
  },

  /** The spendable balance and the threshold while the first is below the second (the banner), else null. */
  async status(accountId: string): Promise<LowBalance | null> {
    const row = await db
      .selectFrom('accounts')
      .select([spendable.as('available'), 'low_balance_threshold'])
      .where('id', '=', accountId)
      .where('low_balance_threshold', 'is not', null)
      .where(sql<boolean>`${spendable} < low_balance_threshold`)
      .executeTakeFirst();
    return row ? { available: Number(row.available), threshold: row.low_balance_threshold! } : null;
  },

  /** The oldest `limit` alerts not sent yet, each with its account's endpoint. */
  unsent: (limit: number) =>
    db
      .selectFrom('low_balance_alerts as l')
      .innerJoin('accounts as a', 'a.id', 'l.account_id')
      .select(['l.id', 'l.account_id', 'l.available', 'l.threshold', 'l.created_at', 'a.webhook_url'])
      .where('l.sent_at', 'is', null)
      .orderBy('l.id')
      .limit(limit)
      .execute(),

  /** Guarded on `sent_at`, so a racing flush marks an alert once. */
  async markSent(id: number, at: string): Promise<void> {
    await db.updateTable('low_balance_alerts').set({ sent_at: at }).where('id', '=', id).where('sent_at', 'is', null).execute();
  },
});
