export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  route: string;
  request_hash: string;
  status: 'in_flight' | 'done';
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
