import type { Database } from '../../shared/db/database.ts';
import { transaction } from '../../shared/db/database.ts';
import { decodeCursor, toPage } from '../../shared/http/pagination.ts';
import { creditsErrors } from './credits.errors.ts';
import { createCreditsRepository, type LedgerChange } from './credits.repository.ts';

export function createCreditsUsecases(deps: { db: Database; clock: () => Date }) {
  const { db, clock } = deps;
  const credits = createCreditsRepository(db);

  return {
    /** Adds credits (operator grants). Returns the new balance. */
    async grant(accountId: string, amount: number, reason?: string): Promise<number> {
      if (!Number.isSafeInteger(amount) || amount <= 0) throw creditsErrors.invalidAmount();
      const at = clock().toISOString();
      const balance = await transaction(db, (trx) =>
        createCreditsRepository(trx).apply({ accountId, kind: 'grant', amount, reason: reason ?? null, at }),
      );
      return balance!;
    },

    async balance(accountId: string): Promise<number> {
      return (await credits.balanceOf(accountId)) ?? 0;
    },

    ledgerSum: (accountId: string) => credits.ledgerSum(accountId),

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
          created_at: row.created_at,
        })),
      };
    },
  };
}

/** Charges inside the caller's transaction; throws 402 with the balance when it is too small. */
export async function chargeIn(
  repo: ReturnType<typeof createCreditsRepository>,
  change: Omit<LedgerChange, 'kind' | 'amount'> & { price: number },
): Promise<number> {
  const { price, ...rest } = change;
  const balance = await repo.apply({ ...rest, kind: 'charge', amount: -price });
  if (balance === null) throw creditsErrors.insufficient((await repo.balanceOf(change.accountId)) ?? 0, price);
  return balance;
}

/** Holds a job's price inside the caller's transaction; throws 402 with the spendable balance when too small. */
export async function holdIn(repo: ReturnType<typeof createCreditsRepository>, accountId: string, price: number) {
  const available = await repo.hold(accountId, price);
  if (available === null) throw creditsErrors.insufficient((await repo.balanceOf(accountId)) ?? 0, price);
  return available;
}

export type CreditsUsecases = ReturnType<typeof createCreditsUsecases>;
