/**
 * One row per Idempotency-Key that committed something. `bound`: written by the transaction that created
 * `resource_id` (and moved its credits); its answer is not stored yet. `done`: the answer is stored.
 */
export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  route: string;
  request_hash: string;
  status: 'bound' | 'done';
  resource_id: string | null;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    idempotency_keys: IdempotencyKeysTable;
  }
}
