import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteAdapter, sql, type Compilable } from 'kysely';
import { createPool, type DatabaseLog } from './database.pool.ts';
import { SubpilotSqliteDialect } from './database.sqlite.ts';
import pg from 'pg';
import type { DatabaseTarget } from '../config/config.ts';

/**
 * Every table of the service. Each feature declares its own in `<feature>.tables.ts` by adding to
 * this interface (TypeScript's declaration merging), so the schema's types live beside the code
 * that owns the rows, and this file never imports a feature.
 */
export interface Tables {}

export type Database = Kysely<Tables>;

/** The change marker of each SQLite database this process opened (`sqliteChangeMarker`). */
const sqliteMarkers = new WeakMap<Database, () => string>();

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
    const dialect = new SubpilotSqliteDialect(sqlite);
    const db = new Kysely<Tables>({ dialect });
    sqliteMarkers.set(db, dialect.changeMarker.read);
    return db;
  }
  return new Kysely<Tables>({ dialect: new PostgresDialect({ pool: createPool(target.url, log) }) });
}

/**
 * SQLite only (null on PostgreSQL): a reading that differs from the one before whenever the database
 * may have changed in between, for a cache that must be exact (keys.known.ts). See database.sqlite.ts.
 */
export const sqliteChangeMarker = (db: Database): (() => string) | null => sqliteMarkers.get(db) ?? null;

/**
 * A hot-path query built and compiled once per SQL dialect (placeholders differ); each call sends only
 * fresh parameters, in the order the builder placed them, on whichever handle is given, a transaction's
 * included. Building a Kysely query allocates dozens of frozen nodes, which under load cost more than
 * running the query itself.
 */
export function compiledOnce<R, P extends unknown[]>(build: (db: Kysely<Tables>) => Compilable<R>) {
  const texts = new Map<boolean, string>();
  return async (db: Kysely<Tables>, ...parameters: P): Promise<R[]> => {
    const sqlite = isSqlite(db);
    let text = texts.get(sqlite);
    if (text === undefined) texts.set(sqlite, (text = build(db).compile().sql));
    return (await db.executeQuery<R>(CompiledQuery.raw(text, parameters))).rows;
  };
}

/** One round trip: throws when the database does not answer (the readiness check). */
export async function ping(db: Database): Promise<void> {
  await sql`select 1`.execute(db);
}

export const isSqlite = (db: Database) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * The query's rows locked until the transaction ends: FOR UPDATE, or FOR SHARE where they only must not
 * be deleted or changed meanwhile. On PostgreSQL only: on SQLite the transaction's BEGIN IMMEDIATE
 * already lets one writer in at a time. Under the lock a row deleted by a transaction in flight is seen
 * gone once that one commits, so "lock it, then act only if it is there" holds under concurrency.
 */
export function locked<Q extends { forUpdate(): Q; forShare(): Q }>(db: Database, query: Q, mode: 'update' | 'share' = 'update'): Q {
  if (isSqlite(db)) return query;
  return mode === 'share' ? query.forShare() : query.forUpdate();
}

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
