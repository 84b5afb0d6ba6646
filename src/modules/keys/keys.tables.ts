export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  fingerprint: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    api_keys: ApiKeysTable;
  }
}
