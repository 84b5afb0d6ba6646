import { existsSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { DEFAULT_MIGRATION_TABLE, sql } from 'kysely';
import type { DatabaseTarget } from '../config/config.ts';
import { createDatabase, type Database } from './database.ts';

/** The database, or, when subpilot has never set it up, where it looked (never a password). */
export type Existing = { db: Database } | { missing: string };

/**
 * A SQLite database is subpilot's once its migrations table is in the file. The file is looked at
 * through a read-only connection first: createDatabase would create a missing file (and its directory),
 * and would switch someone else's file to WAL before we knew it was not ours.
 */
function openExistingSqlite(path: string): Existing {
  if (!existsSync(path)) return { missing: path };
  const file = new SQLite(path, { readonly: true });
  try {
    const found = file.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(DEFAULT_MIGRATION_TABLE);
    if (found === undefined) return { missing: path };
  } finally {
    file.close();
  }
  return { db: createDatabase({ dialect: 'sqlite', path }) };
}

interface PostgresPlace {
  user: string;
  database: string;
  schema: string | null;
  host: string | null;
  port: number | null;
  migrated: boolean;
}

/**
 * A PostgreSQL database is subpilot's once its migrations table is in the current schema, the one
 * migrate() pins it to: a schema without it is new (empty, or another application's), and migrating
 * it would create every table there. Where it looked is what the server says it connected to, so the
 * message holds no part of DATABASE_URL, whose password it could otherwise show.
 */
async function openExistingPostgres(url: string): Promise<Existing> {
  const db = createDatabase({ dialect: 'postgres', url });
  let place: PostgresPlace;
  try {
    place = (
      await sql<PostgresPlace>`
        select current_user as user, current_database() as database, current_schema() as schema,
          host(inet_server_addr()) as host, inet_server_port() as port,
          exists (select 1 from pg_catalog.pg_tables where schemaname = current_schema() and tablename = ${DEFAULT_MIGRATION_TABLE}) as migrated`.execute(db)
    ).rows[0]!;
  } catch (error) {
    await db.destroy();
    throw error;
  }
  if (place.migrated) return { db };
  await db.destroy();
  const server = place.host === null ? 'a Unix socket' : `${place.host}:${place.port}`;
  // current_schema() is null when no schema named in search_path exists.
  const schema = place.schema === null ? 'no schema of its search_path exists' : `schema "${place.schema}"`;
  return { missing: `PostgreSQL database "${place.database}" on ${server} (user "${place.user}", ${schema})` };
}

/**
 * Opens the database `target` names only if subpilot has set it up before (created it and applied its
 * migrations), for commands that must not create one where they were pointed by mistake.
 */
export async function openExistingDatabase(target: DatabaseTarget): Promise<Existing> {
  return target.dialect === 'sqlite' ? openExistingSqlite(target.path) : openExistingPostgres(target.url);
}
