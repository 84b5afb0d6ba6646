import type { Generated } from 'kysely';
export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  fingerprint: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Space-separated scopes (keys.scopes.ts); NULL: every scope, as keys made before scopes existed. */
  scopes: Generated<string | null>;
  /** Whole credits this key may spend per UTC calendar month, holds included; NULL: no limit. */
  monthly_credit_limit: Generated<number | null>;
  /** After this instant the key answers 401 like a revoked one; NULL: never. */
  expires_at: Generated<string | null>;
  /** The key that replaced this one by a roll; it works until `expires_at`, the end of the overlap. */
  replaced_by: Generated<string | null>;
  /** The number of the write that left the row as it is (set by the triggers of migration 0021): what an instance reads to catch up. */
  generation: Generated<number>;
}

/** One row (id 1): the number of the last key write, taken by the triggers of migration 0021. */
export interface KeyGenerationTable {
  id: number;
  generation: number;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    api_keys: ApiKeysTable;
    key_generation: KeyGenerationTable;
  }
}
