import type { Generated } from 'kysely';

/**
 * One nullable column per feature a row can pay for (`scrape_id`, `generation_id`, `publication_id`,
 * `monitor_id` with `match_count`), not one generic subject id: each is a typed reference joined to
 * its own table for the row's description (credits.repository.ts `page`), the rows already written
 * keep their meaning without a migration, and the API and its tests read these columns as they are.
 * Which column a purchase fills is decided in one place, `purchaseColumns` in credits.repository.ts.
 */
export interface CreditLedgerTable {
  id: Generated<number>;
  account_id: string;
  /**
   * grant, charge, refund (of a charge); purchase (credits bought), clawback (taken back for a Stripe
   * refund or dispute), reinstatement (a dispute won), owed_settlement (what was owed, paid from credits coming in).
   */
  kind: 'grant' | 'charge' | 'refund' | 'purchase' | 'clawback' | 'reinstatement' | 'owed_settlement';
  amount: number;
  balance_after: number;
  key_id: string | null;
  scrape_id: string | null;
  generation_id: Generated<string | null>;
  publication_id: Generated<string | null>;
  reason: string | null;
  created_at: string;
  /** A monitor's charge: which monitor, for how many matches of one poll. */
  monitor_id: Generated<string | null>;
  match_count: Generated<number | null>;
  /** Of those matches and the ones filtered out, how many the relevance judge scored (each at PRICE_JUDGE). */
  judged_count: Generated<number | null>;
  /** The payment a purchase, clawback, reinstatement or owed settlement is about. */
  payment_id: Generated<string | null>;
  /** How the row moved what the account owes (accounts.owed): + a clawback could not take, − settled. */
  owed_change: Generated<number>;
}

/** What one key spent in one UTC month ('YYYY-MM'), holds included: the figure its monthly limit is checked against. */
export interface KeyMonthlySpendTable {
  key_id: string;
  month: string;
  spent: number;
}

/** One row per crossing below an account's low-balance threshold, written with the move that crossed it; sent once. */
export interface LowBalanceAlertsTable {
  id: Generated<number>;
  account_id: string;
  available: number;
  threshold: number;
  created_at: string;
  sent_at: string | null;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    credit_ledger: CreditLedgerTable;
    key_monthly_spend: KeyMonthlySpendTable;
    low_balance_alerts: LowBalanceAlertsTable;
  }
}
