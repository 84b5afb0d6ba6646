import type { Kysely } from 'kysely';
import type { Database, Tables } from '../../shared/db/database.ts';
import { transaction } from '../../shared/db/database.ts';
import { decodeCursor, toPage } from '../../shared/http/pagination.ts';
import { describeLedgerEntry } from './credits.describe.ts';
import { creditsErrors } from './credits.errors.ts';
import { createCreditsRepository, type LedgerChange } from './credits.repository.ts';

/** Who a ledger row is for and when: everything of a change but its kind and amount. */
type LedgerContext = Omit<LedgerChange, 'kind' | 'amount'>;

/**
 * The money moves of the billable features, made inside the caller's transaction (`db` may also be the
 * database itself, for a read), so a move commits or rolls back with the record it pays for. Each is one
 * guarded statement: concurrent requests cannot overspend. A feature pays in one of two ways:
 *
 * - HOLD, then settle (scrape). The price is known up front only as a maximum (every subreddit ×
 *   keyword pair), and what is delivered is known only when the run ends, perhaps later in a worker
 *   (the job is queued). `hold` reserves the maximum when the job is accepted, so the account cannot
 *   spend it twice meanwhile; `settleHold` captures what was delivered as a charge and releases the
 *   rest. A failed run captures nothing: the whole hold is released.
 * - CHARGE, then refund on failure (generate, publish). The price is fixed and the work runs in the
 *   request itself, but the outside call (the language model, Reddit) may fail, time out with an
 *   ambiguous outcome, or outlive a crashed process. Charging before the call means a crash never
 *   gives the work away for free; a failure (or recovery, once it knows) refunds it in full.
 *
 * Both refuse with 402 `credits.insufficient`, quoting the spendable balance, when it is too small.
 */
export function creditsIn(db: Kysely<Tables>) {
  const repo = createCreditsRepository(db);
  const insufficient = async (accountId: string, price: number) =>
    creditsErrors.insufficient((await repo.spendableOf(accountId)) ?? 0, price);

  return {
    /** Reserves `amount` of the spendable balance for an accepted job; throws 402 when it is too small. */
    async hold(accountId: string, amount: number): Promise<void> {
      if ((await repo.hold(accountId, amount)) === null) throw await insufficient(accountId, amount);
    },

    /** Ends a hold of `held`: captures `charge` (at most `held`) as a ledger charge, releases the rest. */
    settleHold: (change: LedgerContext & { held: number; charge: number }): Promise<void> => repo.settleHold(change),

    /** Takes `price` from the balance with a ledger charge; throws 402 when the spendable balance is too small. */
    async charge(change: LedgerContext & { price: number }): Promise<void> {
      const { price, ...context } = change;
      if ((await repo.apply({ ...context, kind: 'charge', amount: -price })) === null) throw await insufficient(change.accountId, price);
    },

    /** Gives back `amount` of an earlier charge with a ledger refund. */
    async refund(change: LedgerContext & { amount: number }): Promise<void> {
      await repo.apply({ ...change, kind: 'refund' });
    },

    /** What the account can spend: its balance less what unfinished jobs hold (0 for an unknown account). */
    spendableBalance: async (accountId: string): Promise<number> => (await repo.spendableOf(accountId)) ?? 0,
  };
}

export function createCreditsUsecases(deps: { db: Database; clock: () => Date }) {
  const { db, clock } = deps;
  const credits = createCreditsRepository(db);

  return {
    /** Adds credits (operator grants). Returns the new gross balance (the ledger's `balance_after`). */
    async grant(accountId: string, amount: number, reason?: string): Promise<number> {
      if (!Number.isSafeInteger(amount) || amount <= 0) throw creditsErrors.invalidAmount();
      const at = clock().toISOString();
      const balance = await transaction(db, (trx) =>
        createCreditsRepository(trx).apply({ accountId, kind: 'grant', amount, reason: reason ?? null, at }),
      );
      return balance!;
    },

    /** What the account can spend now: the dashboard's balance, the figure `GET /credits/balance` reads with the key. */
    spendableBalance: (accountId: string): Promise<number> => creditsIn(db).spendableBalance(accountId),

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
          reason: row.reason,
          description: describeLedgerEntry(row),
          created_at: row.created_at,
        })),
      };
    },
  };
}

export type CreditsUsecases = ReturnType<typeof createCreditsUsecases>;
