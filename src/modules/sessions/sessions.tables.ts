/** A dashboard log-in. The cookie holds the session id; only its SHA-256 is stored. */
export interface SessionsTable {
  id_hash: string;
  account_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** Failed dashboard log-ins, kept in the database so every instance throttles alike. */
export interface LoginFailuresTable {
  id: string;
  email: string;
  ip: string;
  created_at: string;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    sessions: SessionsTable;
    login_failures: LoginFailuresTable;
  }
}
