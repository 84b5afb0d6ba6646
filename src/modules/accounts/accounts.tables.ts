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
  created_at: string;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    accounts: AccountsTable;
  }
}
