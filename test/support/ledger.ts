import { sql } from 'kysely';
import type { Database } from '../../src/shared/db/database.ts';

/** The sum of the account's ledger: tests check it equals the gross balance (every move is written down). */
export async function ledgerSum(db: Database, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('credit_ledger')
    .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
