import type { Generated } from 'kysely';
export interface CreditLedgerTable {
  id: Generated<number>;
  account_id: string;
  kind: 'grant' | 'charge' | 'refund';
  amount: number;
  balance_after: number;
  key_id: string | null;
  scrape_id: string | null;
  generation_id: Generated<string | null>;
  publication_id: Generated<string | null>;
  reason: string | null;
  created_at: string;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    credit_ledger: CreditLedgerTable;
  }
}
