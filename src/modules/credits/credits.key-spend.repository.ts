import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';

/**
 * What each key spent per UTC month (`key_monthly_spend`), the counter its monthly limit is checked
 * against. Every statement runs in the transaction of the balance move it counts, so the counter and
 * the balance commit or roll back together. `api_keys` is read here only for a key's limit, id,
 * name and prefix, joined to its counter.
 */
export const createKeySpendRepository = (db: Kysely<Tables>) => ({
  /**
   * Adds `amount` to the key's month in one guarded statement: the insert of a first row and the
   * update of an existing one both check the key's limit, and PostgreSQL locks the counter row (SQLite
   * the whole database), so concurrent moves of one key queue up and never pass the limit together.
   * False, with nothing written, when the amount would take the key past its limit.
   */
  async add(keyId: string, month: string, amount: number): Promise<boolean> {
    const { rows } = await sql<{ spent: number }>`
      insert into key_monthly_spend (key_id, month, spent)
      select ${keyId}, ${month}, cast(${amount} as integer)
      where exists (select 1 from api_keys where id = ${keyId} and (monthly_credit_limit is null or monthly_credit_limit >= ${amount}))
      on conflict (key_id, month) do update set spent = key_monthly_spend.spent + excluded.spent
      where exists (
        select 1 from api_keys
        where id = ${keyId} and (monthly_credit_limit is null or monthly_credit_limit >= key_monthly_spend.spent + excluded.spent)
      )
      returning spent`.execute(db);
    return rows.length > 0;
  },

  /** Takes `amount` back off the key's month (a released hold, a refund), never below 0. */
  async release(keyId: string, month: string, amount: number): Promise<void> {
    await db
      .updateTable('key_monthly_spend')
      .set({ spent: sql`case when spent > ${amount} then spent - ${amount} else 0 end` })
      .where('key_id', '=', keyId)
      .where('month', '=', month)
      .execute();
  },

  /** The key's limit and what it spent in `month`. */
  async limitAndSpent(keyId: string, month: string): Promise<{ limit: number | null; spent: number }> {
    const row = await db
      .selectFrom('api_keys as k')
      .leftJoin('key_monthly_spend as s', (join) => join.onRef('s.key_id', '=', 'k.id').on('s.month', '=', month))
      .select(['k.monthly_credit_limit as limit', 's.spent'])
      .where('k.id', '=', keyId)
      .executeTakeFirst();
    return { limit: row?.limit ?? null, spent: Number(row?.spent ?? 0) };
  },

  /** Each key of the account that spent in `month`, with what it spent. */
  byAccount(accountId: string, month: string) {
    return db
      .selectFrom('key_monthly_spend as s')
      .innerJoin('api_keys as k', 'k.id', 's.key_id')
      .select(['s.key_id', 's.spent'])
      .where('k.account_id', '=', accountId)
      .where('s.month', '=', month)
      .execute();
  },

  /**
   * The account's key shown with `prefix` (any state: a revoked key's history stays readable), with
   * its limit and what it spent in `month`. Prefixes are short, so the newest wins the rare clash.
   */
  findByPrefix(accountId: string, prefix: string, month: string) {
    return db
      .selectFrom('api_keys as k')
      .leftJoin('key_monthly_spend as s', (join) => join.onRef('s.key_id', '=', 'k.id').on('s.month', '=', month))
      .select(['k.id', 'k.name', 'k.prefix', 'k.monthly_credit_limit as limit', 's.spent'])
      .where('k.account_id', '=', accountId)
      .where('k.prefix', '=', prefix)
      .orderBy('k.created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  /**
   * Net credits charged per UTC day from `fromDay` on (charges less refunds, each on the day of its
   * ledger row), for one key or, with `keyId` null, the whole account.
   */
  dailyNet(accountId: string, keyId: string | null, fromDay: string) {
    // Written out (no parameters) so select and group by are the same expression on PostgreSQL.
    const day = sql<string>`substr(created_at, 1, 10)`;
    let query = db
      .selectFrom('credit_ledger')
      .select([day.as('day'), sql<number>`-sum(amount)`.as('credits')])
      .where('account_id', '=', accountId)
      .where('kind', 'in', ['charge', 'refund'])
      .where('created_at', '>=', fromDay)
      .groupBy(day);
    if (keyId !== null) query = query.where('key_id', '=', keyId);
    return query.execute();
  },
});
