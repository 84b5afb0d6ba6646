import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect, sql, type Generated } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from './config.ts';

export interface AccountsTable {
  id: string;
  email: string;
  password_hash: string | null;
  balance: number;
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
  reason: string | null;
  created_at: string;
}

export interface ScrapesTable {
  id: string;
  account_id: string;
  key_id: string | null;
  status: 'running' | 'completed' | 'failed';
  request: string;
  results: string | null;
  unavailable: string | null;
  price: number;
  charged: number;
  error: string | null;
  lease_expires_at: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface Tables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_ledger: CreditLedgerTable;
  scrapes: ScrapesTable;
}

export type Database = Kysely<Tables>;
export type Dialect = DatabaseTarget['dialect'];

/** PostgreSQL returns BIGINT and COUNT as strings; credits fit a JS number, so read them as numbers. */
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export function createDatabase(target: DatabaseTarget): Database {
  if (target.dialect === 'sqlite') {
    if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
    const sqlite = new SQLite(target.path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    return new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  const pool = new pg.Pool({ connectionString: target.url, max: 10 });
  return new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
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
