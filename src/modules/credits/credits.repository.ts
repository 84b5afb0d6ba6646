import { sql, type Kysely } from 'kysely';
import type { CreditLedgerTable, Tables } from '../../app/database.ts';

export type LedgerKind = CreditLedgerTable['kind'];

export interface LedgerChange {
  accountId: string;
  kind: LedgerKind;
  /** Signed: a charge is negative. */
  amount: number;
  keyId?: string | null;
  scrapeId?: string | null;
  reason?: string | null;
  at: string;
}

/** Works on a database or a transaction; build one over the transaction that must include the change. */
export const createCreditsRepository = (db: Kysely<Tables>) => ({
  /**
   * One guarded statement moves the balance, so no concurrent request can read a stale balance and
   * overspend; the ledger row with the balance after it is written in the caller's transaction.
   * Returns null when the balance would drop below zero.
   */
  async apply(change: LedgerChange): Promise<number | null> {
    const updated = await db
      .updateTable('accounts')
      .set({ balance: sql`balance + ${change.amount}` })
      .where('id', '=', change.accountId)
      .where(sql<boolean>`balance + ${change.amount} >= 0`)
      .returning('balance')
      .executeTakeFirst();
    if (!updated) return null;
    await db
      .insertInto('credit_ledger')
      .values({
        account_id: change.accountId,
        kind: change.kind,
        amount: change.amount,
        balance_after: updated.balance,
        key_id: change.keyId ?? null,
        scrape_id: change.scrapeId ?? null,
        reason: change.reason ?? null,
        created_at: change.at,
      })
      .execute();
    return updated.balance;
  },

  async balanceOf(accountId: string): Promise<number | undefined> {
    const row = await db.selectFrom('accounts').select('balance').where('id', '=', accountId).executeTakeFirst();
    return row?.balance;
  },

  async ledgerSum(accountId: string): Promise<number> {
    const row = await db
      .selectFrom('credit_ledger')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  },

  async page(accountId: string, limit: number, beforeId?: number) {
    let query = db
      .selectFrom('credit_ledger as l')
      .leftJoin('api_keys as k', 'k.id', 'l.key_id')
      .select(['l.id', 'l.kind', 'l.amount', 'l.balance_after', 'l.scrape_id', 'l.reason', 'l.created_at'])
      .select(['k.prefix as key_prefix', 'k.name as key_name'])
      .where('l.account_id', '=', accountId)
      .orderBy('l.id', 'desc')
      .limit(limit + 1);
    if (beforeId !== undefined) query = query.where('l.id', '<', beforeId);
    return query.execute();
  },
});

export type CreditsRepository = ReturnType<typeof createCreditsRepository>;
