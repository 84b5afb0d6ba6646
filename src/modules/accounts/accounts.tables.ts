import type { Generated } from 'kysely';
export interface AccountsTable {
  id: string;
  email: string;
  password_hash: string | null;
  balance: number;
  /** Credits reserved by accepted, unfinished jobs; what a user can spend is balance − held. */
  held: Generated<number>;
  /** Sealed with SECRET_KEY (src/app/crypto.ts, the account id as context); `whsec_…` only from before sealing, sealed at start-up. */
  webhook_secret: string | null;
  /** The secret a roll replaced, sealed like the current one, still signing beside it until `webhook_secret_previous_until`. */
  webhook_secret_previous: Generated<string | null>;
  webhook_secret_previous_until: Generated<string | null>;
  created_at: string;
  /** A `credits.low` alert goes out when the spendable balance falls below it; NULL: off. */
  low_balance_threshold: Generated<number | null>;
  /** 1 while the balance is below the threshold and the alert for this crossing exists (0 or 1). */
  low_balance_alerted: Generated<number>;
  /** The account's own webhook endpoint, for events not tied to one job (`credits.low`). */
  webhook_url: Generated<string | null>;
  /** Credits a refund or dispute could not take back because they were spent; paid first from credits coming in. */
  owed: Generated<number>;
  /** How the account's reply drafts should sound (set on the dashboard), given to the model with every draft; null: none. */
  voice: Generated<string | null>;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    accounts: AccountsTable;
  }
}
