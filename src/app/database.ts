import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteAdapter, sql, type Compilable, type Generated } from 'kysely';
import { createPool, type DatabaseLog } from './database.pool.ts';
import { SubpilotSqliteDialect } from './database.sqlite.ts';
import pg from 'pg';
import type { DatabaseTarget } from './config.ts';

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

export interface ScrapesTable {
  id: string;
  account_id: string;
  key_id: string | null;
  status: 'queued' | 'running' | 'completed' | 'failed';
  request: string;
  results: string | null;
  unavailable: string | null;
  price: number;
  charged: number;
  error: string | null;
  lease_expires_at: string | null;
  created_at: string;
  completed_at: string | null;
  attempts: Generated<number>;
  webhook_url: string | null;
  /** Posts Reddit sent that could not be read and were left out. */
  skipped: Generated<number>;
}

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

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  scrape_id: string;
  url: string;
  event_type: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

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

export interface RateLimitWindowsTable {
  key_id: string;
  window_start: number;
  count: number;
}

/** The shared Reddit request budget: one row per consumer (an account id, or "system"). */
export interface RedditBudgetTable {
  consumer: string;
  /** Start of the window `used` counts in, ms since the epoch. */
  window_start: number;
  used: number;
  /** The consumer competes for the budget until then, ms since the epoch. */
  active_until: number;
}

export interface JobsTable {
  id: string;
  queue: string;
  data: string;
  state: 'queued' | 'active' | 'completed' | 'failed';
  attempts: number;
  retry_limit: number;
  retry_delay_seconds: number;
  expire_seconds: number;
  run_after: string;
  last_error: string | null;
}

export interface GenerationsTable {
  id: string;
  account_id: string;
  key_id: string | null;
  status: 'running' | 'completed' | 'failed';
  type: 'reply' | 'post';
  request: string;
  post_id: string | null;
  subreddit: string;
  title: string | null;
  body: string | null;
  model: string | null;
  usage: string | null;
  price: number;
  charged: number;
  error: string | null;
  lease_expires_at: string | null;
  created_at: string;
  completed_at: string | null;
}

/** `unknown`: Reddit did not answer in time; checked against the author's listings, or refunded if it never can be. */
export interface PublicationsTable {
  id: string;
  account_id: string;
  key_id: string | null;
  status: 'running' | 'published' | 'failed' | 'unknown';
  kind: 'comment' | 'post';
  target: string;
  title: string | null;
  body: string;
  generation_id: string | null;
  content_hash: string;
  idempotency_key: string | null;
  request_hash: string;
  reddit_id: string | null;
  permalink: string | null;
  price: number;
  charged: number;
  error: string | null;
  /** While `running`, or `unknown` and still to be checked with Reddit: when recovery may act. */
  lease_expires_at: string | null;
  created_at: string;
  completed_at: string | null;
  /** The Reddit user it was sent as (null before migration 0008). */
  author: string | null;
  /** Recovery rounds in which Reddit could not be asked whether it went out. */
  recovery_checks: number;
}

/** An account's Reddit identity; the refresh token is sealed with SECRET_KEY (AES-256-GCM). */
export interface RedditConnectionsTable {
  account_id: string;
  username: string;
  refresh_token_sealed: string;
  scope: string;
  created_at: string;
  updated_at: string;
}

/** One pending authorization per row; only the SHA-256 of the state is kept. */
export interface OauthStatesTable {
  state_hash: string;
  account_id: string;
  session_hash: string;
  expires_at: string;
}

/** The subreddit directory: what Reddit last said about a subreddit, keyed by its lower-case name. */
export interface SubredditsTable {
  name: string;
  display_name: string;
  state: 'ok' | 'private' | 'banned' | 'quarantined' | 'not_found' | 'forbidden';
  /** 1 when Reddit marks it over 18. */
  nsfw: number;
  checked_at: string;
}

export interface Tables {
  subreddits: SubredditsTable;
  generations: GenerationsTable;
  publications: PublicationsTable;
  reddit_connections: RedditConnectionsTable;
  oauth_states: OauthStatesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limit_windows: RateLimitWindowsTable;
  reddit_budget: RedditBudgetTable;
  jobs: JobsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_ledger: CreditLedgerTable;
  scrapes: ScrapesTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
}

export type Database = Kysely<Tables>;
export type Dialect = DatabaseTarget['dialect'];

/** PostgreSQL returns BIGINT and COUNT as strings; credits fit a JS number, so read them as numbers. */
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/** `log` hears of PostgreSQL connections lost between queries; without one they are still survived, silently. */
export function createDatabase(target: DatabaseTarget, log: DatabaseLog = { warn: () => undefined }): Database {
  if (target.dialect === 'sqlite') {
    if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
    const sqlite = new SQLite(target.path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    return new Kysely<Tables>({ dialect: new SubpilotSqliteDialect(sqlite) });
  }
  return new Kysely<Tables>({ dialect: new PostgresDialect({ pool: createPool(target.url, log) }) });
}

/**
 * A hot-path query built and compiled once; each call sends only fresh parameters, in the order the
 * builder placed them. Building a Kysely query allocates dozens of frozen nodes, which under load
 * cost more than running the query itself.
 */
export function precompiled<R, P extends unknown[]>(db: Database, query: Compilable<R>) {
  const { sql: text } = query.compile();
  return async (...parameters: P): Promise<R[]> => (await db.executeQuery<R>(CompiledQuery.raw(text, parameters))).rows;
}

export const isSqlite = (db: Database) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * Runs `work` in one transaction. On SQLite it is `BEGIN IMMEDIATE`, so the write lock is taken up
 * front and two writers never both read and then fail to upgrade; on PostgreSQL an ordinary one.
 */
export async function transaction<T>(db: Database, work: (trx: Kysely<Tables>) => Promise<T>): Promise<T> {
  if (!isSqlite(db)) return db.transaction().execute(work);
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await work(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn);
      throw error;
    }
  });
}
