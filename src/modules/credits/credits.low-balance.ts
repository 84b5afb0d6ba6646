import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';

export interface LowBalance {
  available: number;
  threshold: number;
}

/**
 * Low-balance alerts (issue 13). `check` runs inside the transaction of every money move, after it:
 * one guarded statement flips the account's `low_balance_alerted` flag when the spendable balance
 * crosses its threshold, either way, and a crossing downwards writes one `low_balance_alerts` row, sent later.
 * The move has already locked the account's row (PostgreSQL) or taken the write lock (SQLite), so
 * concurrent moves see each other's flag: exactly one of them writes the alert of a crossing.
 */
export function lowBalanceIn(db: Kysely<Tables>) {
  return {
    async check(accountId: string, at: string): Promise<void> {
      // One statement whatever happens: it matches only when the flag must flip, so the usual move (no
      // threshold, or no crossing) costs one indexed no-op update.
      const below = sql<number>`case when low_balance_threshold is not null and balance - held < low_balance_threshold then 1 else 0 end`;
      const flipped = await db
        .updateTable('accounts')
        .set({ low_balance_alerted: below })
        .where('id', '=', accountId)
        .where('low_balance_alerted', '<>', below)
        .returning(['low_balance_alerted', sql<number>`balance - held`.as('available'), 'low_balance_threshold'])
        .executeTakeFirst();
      // Fell below: this crossing's one alert. Back at or above (or no threshold any more): the next fall is a new crossing.
      if (flipped?.low_balance_alerted === 1) {
        await db
          .insertInto('low_balance_alerts')
          .values({ account_id: accountId, available: Number(flipped.available), threshold: flipped.low_balance_threshold!, created_at: at, sent_at: null })
          .execute();
      }
    },

    /** The spendable balance and the threshold while the first is below the second (the banner), else null. */
    async status(accountId: string): Promise<LowBalance | null> {
      const row = await db
        .selectFrom('accounts')
        .select([sql<number>`balance - held`.as('available'), 'low_balance_threshold'])
        .where('id', '=', accountId)
        .where('low_balance_threshold', 'is not', null)
        .where(sql<boolean>`balance - held < low_balance_threshold`)
        .executeTakeFirst();
      return row ? { available: Number(row.available), threshold: row.low_balance_threshold! } : null;
    },
  };
}
