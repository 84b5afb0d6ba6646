import { sql, type Kysely } from 'kysely';
import { compiledOnce, isSqlite, type Database, type Tables } from '../../shared/db/database.ts';
import { readUnlessChanged } from '../../shared/db/unchanged-cache.ts';
import type { Purchase } from './credits.prices.ts';
import type { Via } from '../../shared/via.ts';
import type { CreditLedgerTable } from './credits.tables.ts';

export type LedgerKind = CreditLedgerTable['kind'];

export interface LedgerChange {
  accountId: string;
  kind: LedgerKind;
  /** Signed: a charge is negative. */
  amount: number;
  keyId?: string | null;
  /** What the row pays for (or refunds); none for a grant. */
  purchase?: Purchase | null;
  /** How the row moves what the account owes; 0 when omitted. */
  owedChange?: number;
  reason?: string | null;
  at: string;
}

/**
 * What an account can spend: its gross balance less what unfinished jobs hold, as an expression over
 * `accounts`. Every guard and read of it (here and in credits.low-balance.repository.ts) uses this one.
 */
export const spendable = sql<number>`(balance - held)`;

/** The ledger's reference to what a row pays for: one typed column per feature (see credits.tables.ts). */
function purchaseColumns(purchase: Purchase | null | undefined) {
  return {
    scrape_id: purchase?.kind === 'scrape' ? purchase.id : null,
    generation_id: purchase?.kind === 'generation' ? purchase.id : null,
    publication_id: purchase?.kind === 'publication' ? purchase.id : null,
    monitor_id: purchase?.kind === 'monitor' ? purchase.id : null,
    match_count: purchase?.kind === 'monitor' ? purchase.matches : null,
    judged_count: purchase?.kind === 'monitor' && purchase.judged ? purchase.judged : null,
    payment_id: purchase?.kind === 'payment' ? purchase.id : null,
  };
}

/** The ledger row of a move that left the gross balance at `balanceAfter`. */
const ledgerRow = (change: LedgerChange, balanceAfter: number) => ({
  account_id: change.accountId,
  kind: change.kind,
  amount: change.amount,
  balance_after: balanceAfter,
  key_id: change.keyId ?? null,
  ...purchaseColumns(change.purchase),
  reason: change.reason ?? null,
  owed_change: change.owedChange ?? 0,
  created_at: change.at,
});

/** Compiled once: every balance read and every refusal for credits runs it. */
const readStanding = compiledOnce<{ available: number; owed: number }, [accountId: string]>((db) =>
  db.selectFrom('accounts').select([spendable.as('available'), 'owed']).where('id', '=', ''),
);

/**
 * `accounts.balance` is the gross balance (what the ledger sums to, shown as `balance_after`);
 * `accounts.held` is reserved by unfinished scrapes and publications. What an account can spend is the difference.
 * Works on a database or a transaction; build one over the transaction that must include the change.
 */
export const createCreditsRepository = (db: Kysely<Tables>) => ({
  /**
   * One guarded statement moves the balance (and, with `owedChange`, what is owed: the column's check
   * keeps it at 0 or more), so no concurrent request can read a stale balance and overspend; the
   * ledger row with the balance after it is written in the caller's transaction. Returns the gross
   * balance after it, or null when the spendable balance would drop below zero.
   */
  async apply(change: LedgerChange): Promise<number | null> {
    const owed = change.owedChange ? { owed: sql<number>`owed + ${change.owedChange}` } : {};
    const updated = await db
      .updateTable('accounts')
      .set({ balance: sql`balance + ${change.amount}`, ...owed })
      .where('id', '=', change.accountId)
      .where(sql<boolean>`${spendable} + ${change.amount} >= 0`)
      .returning('balance')
      .executeTakeFirst();
    if (!updated) return null;
    await db.insertInto('credit_ledger').values(ledgerRow(change, updated.balance)).execute();
    return updated.balance;
  },

  /**
   * Reserves credits for an accepted job with one guarded statement; what is held cannot be spent
   * twice. Returns the spendable balance after the hold, or null when it would go below zero.
   */
  async hold(accountId: string, amount: number): Promise<number | null> {
    const row = await db
      .updateTable('accounts')
      .set({ held: sql`held + ${amount}` })
      .where('id', '=', accountId)
      .where(sql<boolean>`${spendable} >= ${amount}`)
      .returning(spendable.as('available'))
      .executeTakeFirst();
    return row ? Number(row.available) : null;
  },

  /** Ends a hold: `charge` (at most the held amount) is captured as a ledger charge, the rest released. */
  async settleHold(change: Omit<LedgerChange, 'kind' | 'amount'> & { held: number; charge: number }): Promise<void> {
    const updated = await db
      .updateTable('accounts')
      .set({ held: sql`held - ${change.held}`, balance: sql`balance - ${change.charge}` })
      .where('id', '=', change.accountId)
      .returning('balance')
      .executeTakeFirstOrThrow();
    if (change.charge === 0) return;
    await db
      .insertInto('credit_ledger')
      .values(ledgerRow({ ...change, kind: 'charge', amount: -change.charge }, updated.balance))
      .execute();
  },

  /**
   * Locks the account's row for the rest of the caller's transaction (a no-op update: PostgreSQL holds
   * its row lock to the commit; SQLite's BEGIN IMMEDIATE already serialises writers) and reads what it
   * can spend and what it owes, so the `apply` that follows is worked out from figures no one can change.
   */
  async lockStanding(accountId: string): Promise<{ spendable: number; owed: number }> {
    const row = await db
      .updateTable('accounts')
      .set({ owed: sql`owed` })
      .where('id', '=', accountId)
      .returning([spendable.as('available'), 'owed'])
      .executeTakeFirstOrThrow();
    return { spendable: Number(row.available), owed: Number(row.owed) };
  },

  /** What the account can spend and what it owes, without locking (a read for a page or an answer). */
  async standingOf(accountId: string): Promise<{ spendable: number; owed: number } | undefined> {
    // The balance path of the API reads this on every call; on SQLite it is served from memory while nothing was written.
    const [row] = await readUnlessChanged(db, `standing:${accountId}`, () => readStanding(db, accountId));
    return row && { spendable: Number(row.available), owed: Number(row.owed) };
  },

  /** A page of the ledger with what each row paid for (scrape, draft, publication, monitor), so it can say so in words. */
  async page(accountId: string, limit: number, beforeId?: number) {
    const sqlite = isSqlite(db as Database);
    const resultsFound = sqlite ? sql<number | null>`json_array_length(s.results)` : sql<number | null>`json_array_length(s.results::json)`;
    // Results stored before comments could be read carry no type: they are posts, and not counted here.
    const commentsFound = sqlite
      ? sql<number>`(select count(*) from json_each(s.results) where json_extract(value, '$.type') = 'comment')`
      : sql<number>`(select count(*) from json_array_elements(s.results::json) as r where r->>'type' = 'comment')`;
    let query = db
      .selectFrom('credit_ledger as l')
      .leftJoin('api_keys as k', 'k.id', 'l.key_id')
      .leftJoin('scrapes as s', 's.id', 'l.scrape_id')
      .leftJoin('generations as g', 'g.id', 'l.generation_id')
      .leftJoin('publications as p', 'p.id', 'l.publication_id')
      .leftJoin('monitors as m', 'm.id', 'l.monitor_id')
      .leftJoin('payments as pay', 'pay.id', 'l.payment_id')
      .select(['l.id', 'l.kind', 'l.amount', 'l.balance_after', 'l.scrape_id', 'l.generation_id', 'l.publication_id', 'l.reason', 'l.created_at'])
      .select(['k.prefix as key_prefix', 'k.name as key_name'])
      .select(['s.request as scrape_request', 's.unavailable as scrape_unavailable', resultsFound.as('scrape_results'), commentsFound.as('scrape_comments')])
      .select(['g.type as generation_type', 'g.subreddit as generation_subreddit', 'g.error as generation_error'])
      .select(['p.kind as publication_kind', 'p.target as publication_target', 'p.error as publication_error'])
      .select(['l.monitor_id', 'l.match_count', 'l.judged_count', 'm.name as monitor_name'])
      .select(['l.payment_id', 'l.owed_change', 'pay.amount as payment_amount', 'pay.currency as payment_currency', 'pay.source as payment_source'])
      // The interface of the call it paid for (at most one of the four is joined; a grant joins none), or
      // `monitor` for a match's charge: the poller's doing, not a call through the interface that created the monitor.
      .select((eb) =>
        eb.case().when('l.monitor_id', 'is not', null).then(sql<Via>`'monitor'`).else(eb.fn.coalesce('s.via', 'g.via', 'p.via', 'pay.via')).end().as('via'),
      )
      .where('l.account_id', '=', accountId)
      .orderBy('l.id', 'desc')
      .limit(limit + 1);
    if (beforeId !== undefined) query = query.where('l.id', '<', beforeId);
    return query.execute();
  },
});
