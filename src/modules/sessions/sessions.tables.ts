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

/** What a mailed link is for: confirming a sign-up, or setting a new password. */
export type TokenPurpose = 'signup' | 'reset';

/**
 * One mailed link (migration 0027): written when the form is posted, its `token_hash` (SHA-256 of the
 * link's token) added by the job that writes the mail; the token itself is never stored.
 */
export interface AccountTokensTable {
  id: string;
  purpose: TokenPurpose;
  /** As typed, normalized; a reset's account is looked up by it when the mail is written. */
  email: string;
  /** The reset's account, set by the mail job; null for a sign-up and for an unknown address. */
  account_id: string | null;
  /** A sign-up's chosen password (argon2id), until it is confirmed. */
  password_hash: string | null;
  /** SHA-256 of the form cookie of the browser that signed up, which confirms without the password. */
  browser_hash: string | null;
  token_hash: string | null;
  created_at: string;
  expires_at: string;
  /** When its mail went out; null before (or when no mail is due: a reset for an unknown address). */
  mailed_at: string | null;
  used_at: string | null;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    sessions: SessionsTable;
    login_failures: LoginFailuresTable;
    account_tokens: AccountTokensTable;
  }
}
