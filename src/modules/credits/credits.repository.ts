import { sql, type Kysely } from 'kysely';
import { isSqlite, type Database, type Tables } from '../../shared/db/database.ts';
import type { Purchase } from './credits.prices.ts';
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
  created_at: change.at,
});

/**
 * `accounts.balance` is the gross balance (what the ledger sums to, shown as `balance_after`);
 * `accounts.held` is reserved by unfinished scrapes. What an account can spend is the difference.
 * Works on a database or a transaction; build one over the transaction that must include the change.
 */
export const createCreditsRepository = (db: Kysely<Tables>) => ({
  /**
   * One guarded statement moves the balance, so no concurrent request can read a stale balance and
   * overspend; the ledger row with the balance after it is written in the caller's transaction.
   * Returns the gross balance after it, or null when the spendable balance would drop below zero.
   */
  async apply(change: LedgerChange): Promise<number | null> {
    const updated = await db
      .updateTable('accounts')
      .set({ balance: sql`balance + ${change.amount}` })
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

  /** What the account can spend: its gross balance less the credits held by unfinished jobs. */
  async spendableOf(accountId: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('accounts')
      .select(spendable.as('available'))
      .where('id', '=', accountId)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.available);
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
      .select(['l.id', 'l.kind', 'l.amount', 'l.balance_after', 'l.scrape_id', 'l.generation_id', 'l.publication_id', 'l.reason', 'l.created_at'])
      .select(['k.prefix as key_prefix', 'k.name as key_name'])
      .select(['s.request as scrape_request', 's.unavailable as scrape_unavailable', resultsFound.as('scrape_results'), commentsFound.as('scrape_comments')])
      .select(['g.type as generation_type', 'g.subreddit as generation_subreddit', 'g.error as generation_error'])
      .select(['p.kind as publication_kind', 'p.target as publication_target', 'p.error as publication_error'])
      .select(['l.monitor_id', 'l.match_count', 'm.name as monitor_name'])
      // The interface of the call it paid for: at most one of the four is joined; a grant joins none.
      .select((eb) => eb.fn.coalesce('s.via', 'g.via', 'p.via', 'm.via').as('via'))
      .where('l.account_id', '=', accountId)
      .orderBy('l.id', 'desc')
      .limit(limit + 1);
    if (beforeId !== undefined) query = query.where('l.id', '<', beforeId);
    return query.execute();
  },
});

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
