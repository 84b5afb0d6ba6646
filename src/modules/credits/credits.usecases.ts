import type { Kysely } from 'kysely';
import type { Database, Tables } from '../../shared/db/database.ts';
import { transaction } from '../../shared/db/database.ts';
import { decodeCursor, toPage } from '../../shared/http/pagination.ts';
import { describeLedgerEntry } from './credits.describe.ts';
import { creditsErrors } from './credits.errors.ts';
import { lowBalanceIn } from './credits.low-balance.usecases.ts';
import { lastDays, monthOf, nextMonthStart } from '../../shared/calendar.ts';
import { createKeySpendRepository } from './credits.key-spend.repository.ts';
import { createCreditsRepository, type LedgerChange } from './credits.repository.ts';

/** Who a ledger row is for and when: everything of a change but its kind and amount. */
type LedgerContext = Omit<LedgerChange, 'kind' | 'amount'>;

/** Credits an account receives: granted by the operator, bought, or given back when a dispute is won. */
export interface IncomingCredits {
  accountId: string;
  kind: 'grant' | 'purchase' | 'reinstatement';
  amount: number;
  paymentId?: string;
  reason?: string | null;
  at: string;
}

/**
 * The money moves of the billable features, made inside the caller's transaction (`db` may also be the
 * database itself, for a read), so a move commits or rolls back with the record it pays for. Each is one
 * guarded statement: concurrent requests cannot overspend. A feature pays in one of two ways:
 *
 * - HOLD, then settle (scrape, publish). What is owed is known only when the work ends, perhaps later
 *   in a worker or in recovery: a scrape's price is known up front only as a maximum (every subreddit
 *   × keyword pair); a publication's is fixed but owed only if Reddit accepts it, which a timeout or
 *   a crash may leave unknown for a while. `hold` reserves the most it can cost when the work is
 *   accepted, so the account cannot spend it twice meanwhile; `settleHold` captures what is owed as a
 *   charge and releases the rest. Work that delivers nothing captures nothing: the whole hold is
 *   released and the ledger gets no row.
 * - CHARGE, then refund on failure (generate). The price is fixed and the work runs in the request
 *   itself, but the language model may fail, time out, or outlive a crashed process. Charging before
 *   the call means a crash never gives the work away for free; a failure (or recovery) refunds it in full.
 *
 * Both refuse with 402 `credits.insufficient`, quoting the spendable balance, when it is too small.
 *
 * A hold or charge made with a key also counts against the key's monthly limit, in the month of the
 * move (UTC): 402 `credits.key_limit_reached` when it would pass it, and the caller's transaction
 * rolls the balance move back with it. The balance is checked first: every move locks the account
 * row before the key's counter row, so concurrent moves never wait on each other in opposite orders,
 * and an account that cannot pay says so whatever its key's limit. Released holds and refunds give
 * the key its budget back in the month they were counted in. After every move the low-balance check
 * runs in the same transaction.
 */
export function creditsIn(db: Kysely<Tables>) {
  const repo = createCreditsRepository(db);
  const spend = createKeySpendRepository(db);
  const lowBalance = lowBalanceIn(db);
  const insufficient = async (accountId: string, price: number) =>
    creditsErrors.insufficient((await repo.standingOf(accountId))?.spendable ?? 0, price);

  /** Counts `amount` against the key's limit in the month of `at`; moves without a key (grants) have no counter. */
  async function countForKey(keyId: string | null | undefined, amount: number, at: string): Promise<void> {
    if (!keyId) return;
    const month = monthOf(at);
    if (await spend.add(keyId, month, amount)) return;
    const { limit, spent } = await spend.limitAndSpent(keyId, month);
    throw creditsErrors.keyLimitReached({ limit: limit ?? 0, spent, required: amount, resetsAt: nextMonthStart(month) });
  }

  /**
   * A move worked out from the figures `lockStanding` read under the account's lock, so the guard
   * always holds; a refusal would mean those figures were wrong, never a balance too small.
   */
  async function applyLocked(change: LedgerChange): Promise<number> {
    const after = await repo.apply(change);
    if (after === null) throw new Error(`a ${change.kind} of ${change.amount} worked out under the account's lock was refused`);
    return after;
  }

  async function releaseForKey(keyId: string | null | undefined, amount: number, countedAt: string): Promise<void> {
    if (keyId && amount > 0) await spend.release(keyId, monthOf(countedAt), amount);
  }

  return {
    /** Reserves `amount` of the spendable balance for an accepted job; throws 402 when it is too small or past the key's limit. */
    async hold(change: { accountId: string; keyId: string | null; amount: number; at: string }): Promise<void> {
      const { accountId, keyId, amount, at } = change;
      if ((await repo.hold(accountId, amount)) === null) throw await insufficient(accountId, amount);
      await countForKey(keyId, amount, at);
      await lowBalance.check(accountId, at);
    },

    /**
     * Ends a hold of `held` made at `heldAt`: captures `charge` (at most `held`) as a ledger charge and
     * releases the rest, from the balance's holds and from the key's spend in the month of the hold.
     */
    async settleHold(change: LedgerContext & { held: number; charge: number; heldAt: string }): Promise<void> {
      const { heldAt, ...settlement } = change;
      await repo.settleHold(settlement);
      await releaseForKey(change.keyId, change.held - change.charge, heldAt);
      await lowBalance.check(change.accountId, change.at);
    },

    /** Takes `price` from the balance with a ledger charge; throws 402 when the spendable balance is too small or past the key's limit. */
    async charge(change: LedgerContext & { price: number }): Promise<void> {
      const { price, ...context } = change;
      if ((await repo.apply({ ...context, kind: 'charge', amount: -price })) === null) throw await insufficient(change.accountId, price);
      await countForKey(change.keyId, price, change.at);
      await lowBalance.check(change.accountId, change.at);
    },

    /** Gives back `amount` of a charge made at `chargedAt` with a ledger refund; the key gets it back in that month. */
    async refund(change: LedgerContext & { amount: number; chargedAt: string }): Promise<void> {
      const { chargedAt, ...refund } = change;
      await repo.apply({ ...refund, kind: 'refund' });
      await releaseForKey(change.keyId, change.amount, chargedAt);
      await lowBalance.check(change.accountId, change.at);
    },

    /**
     * Credits coming in: a grant, a purchase, a dispute won. What the account owes is paid from them
     * first, as a second ledger row, so the ledger shows both the credits and where they went.
     * Returns the gross balance after it.
     */
    async receive(change: IncomingCredits): Promise<number> {
      const { accountId, amount, at } = change;
      const { owed } = await repo.lockStanding(accountId);
      const purchase = change.paymentId ? ({ kind: 'payment', id: change.paymentId } as const) : null;
      let after = await applyLocked({ accountId, kind: change.kind, amount, purchase, reason: change.reason ?? null, at });
      const settled = Math.min(owed, amount);
      if (settled > 0) after = await applyLocked({ accountId, kind: 'owed_settlement', amount: -settled, owedChange: -settled, purchase, at });
      await lowBalance.check(accountId, at);
      return after;
    },

    /**
     * Takes back `amount` credits for a refund or a dispute: what the account can spend now, and the
     * rest as owed (paid by the next credits coming in). Never a negative balance, never a held credit.
     */
    async takeBack(change: { accountId: string; amount: number; paymentId: string; reason: string; at: string }): Promise<void> {
      const { accountId, amount, at, reason } = change;
      const taken = Math.min((await repo.lockStanding(accountId)).spendable, amount);
      const purchase = { kind: 'payment', id: change.paymentId } as const;
      await applyLocked({ accountId, kind: 'clawback', amount: -taken, owedChange: amount - taken, purchase, reason, at });
      await lowBalance.check(accountId, at);
    },

    /** What the account can spend: its balance less what unfinished jobs hold (0 for an unknown account). */
    spendableBalance: async (accountId: string): Promise<number> => (await repo.standingOf(accountId))?.spendable ?? 0,
  };
}

export function createCreditsUsecases(deps: { db: Database; clock: () => Date }) {
  const { db, clock } = deps;
  const credits = createCreditsRepository(db);
  const keySpend = createKeySpendRepository(db);

  /** Net credits charged per UTC day (charges less refunds), `days` entries oldest first ending today; keyId null: the whole account. */
  async function dailySpend(accountId: string, keyId: string | null, days: number): Promise<{ date: string; credits: number }[]> {
    const dates = lastDays(clock(), days);
    const rows = await keySpend.dailyNet(accountId, keyId, dates[0]!);
    const byDay = new Map(rows.map((row) => [row.day, Number(row.credits)]));
    return dates.map((date) => ({ date, credits: byDay.get(date) ?? 0 }));
  }

  return {
    /** Adds credits (operator grants). Returns the new gross balance (the ledger's `balance_after`). */
    async grant(accountId: string, amount: number, reason?: string): Promise<number> {
      if (!Number.isSafeInteger(amount) || amount <= 0) throw creditsErrors.invalidAmount();
      const at = clock().toISOString();
      return transaction(db, (trx) => creditsIn(trx).receive({ accountId, kind: 'grant', amount, reason: reason ?? null, at }));
    },

    /** What the account can spend now: the dashboard's balance, the figure `GET /credits/balance` reads with the key. */
    spendableBalance: (accountId: string): Promise<number> => creditsIn(db).spendableBalance(accountId),

    /** What the account can spend and what it owes (refunded or disputed credits it had already spent). */
    standing: async (accountId: string): Promise<{ balance: number; owed: number }> => {
      const row = await credits.standingOf(accountId);
      return { balance: row?.spendable ?? 0, owed: row?.owed ?? 0 };
    },

    /** Each key's spend this UTC month, holds included: the figure its monthly limit is checked against. Keys that spent nothing are absent. */
    async keySpend(accountId: string): Promise<Map<string, number>> {
      const rows = await keySpend.byAccount(accountId, monthOf(clock()));
      return new Map(rows.map((row) => [row.key_id, Number(row.spent)]));
    },

    dailySpend,

    /** `GET /usage/daily`: the daily spend of the account or of its key shown with `prefix`, and that key's month so far. */
    async dailyUsage(accountId: string, options: { prefix?: string; days: number }) {
      const month = monthOf(clock());
      const key = options.prefix === undefined ? undefined : await keySpend.findByPrefix(accountId, options.prefix, month);
      if (options.prefix !== undefined && !key) throw creditsErrors.keyNotFound();
      const days = await dailySpend(accountId, key?.id ?? null, options.days);
      return {
        key: key ? { name: key.name, prefix: key.prefix } : null,
        days,
        total: days.reduce((sum, day) => sum + day.credits, 0),
        month_to_date: key ? { spent: Number(key.spent ?? 0), limit: key.limit, resets_at: nextMonthStart(month) } : null,
      };
    },

    async usage(accountId: string, options: { limit: number; cursor?: string }) {
      const before = decodeCursor(options.cursor, /^\d+$/);
      const rows = await credits.page(accountId, options.limit, before === undefined ? undefined : Number(before));
      const page = toPage(rows, options.limit, (row) => row.id);
      return {
        ...page,
        data: page.data.map((row) => ({
          id: row.id,
          type: row.kind,
          amount: row.amount,
          balance_after: row.balance_after,
          key: row.key_prefix ? { name: row.key_name ?? '', prefix: row.key_prefix } : null,
          scrape_id: row.scrape_id,
          generation_id: row.generation_id,
          publication_id: row.publication_id,
          payment:
            row.payment_id && row.payment_amount != null && row.payment_currency && row.payment_source
              ? { id: row.payment_id, amount: Number(row.payment_amount), currency: row.payment_currency, source: row.payment_source }
              : null,
          owed_change: Number(row.owed_change),
          reason: row.reason,
          description: describeLedgerEntry(row),
          via: row.via,
          created_at: row.created_at,
        })),
      };
    },
  };
}

export type CreditsUsecases = ReturnType<typeof createCreditsUsecases>;
