import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase } from '../../src/shared/db/database.ts';
import { migrate } from '../../src/shared/db/migrate.ts';

/**
 * Migrated databases made once per test run (test/support/global-setup.ts), which every test app
 * copies instead of migrating its own: a copied SQLite file, and a PostgreSQL database created from a
 * template database. Migrating took about 90 ms on SQLite and 270 ms on PostgreSQL per app.
 */
export interface DatabaseTemplates {
  /** A migrated SQLite file, closed: copying it gives a migrated database. */
  sqlite: string;
  /** A migrated PostgreSQL database, with no connection left open (CREATE DATABASE … TEMPLATE needs that). */
  postgres: string | null;
}

/** Every template's tables sit in this schema; a copy renames it to its own name (see engines.ts). */
export const TEMPLATE_SCHEMA = 't_template';

export async function buildTemplates(postgresUrl: string | undefined): Promise<{ templates: DatabaseTemplates; remove(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'subpilot-template-'));
  const sqlite = join(dir, 'template.sqlite');
  const sqliteDb = createDatabase({ dialect: 'sqlite', path: sqlite });
  await migrate(sqliteDb);
  // Closing the last connection folds the write-ahead log into the file, so the file alone is the database.
  await sqliteDb.destroy();

  let postgres: string | null = null;
  if (postgresUrl) {
    postgres = `subpilot_template_${randomBytes(4).toString('hex')}`;
    await adminQuery(postgresUrl, `CREATE DATABASE ${postgres}`);
    const templateDb = createDatabase({ dialect: 'postgres', url: databaseUrl(postgresUrl, postgres, TEMPLATE_SCHEMA) });
    await adminQuery(databaseUrl(postgresUrl, postgres), `CREATE SCHEMA ${TEMPLATE_SCHEMA}`);
    await migrate(templateDb);
    await templateDb.destroy();
  }
  return {
    templates: { sqlite, postgres },
    async remove() {
      rmSync(dir, { recursive: true, force: true });
      if (postgresUrl && postgres) await adminQuery(postgresUrl, `DROP DATABASE IF EXISTS ${postgres} WITH (FORCE)`);
    },
  };
}

/** `url` pointed at another database, and at a schema there when given (as DATABASE_URL carries it). */
export function databaseUrl(url: string, database: string, schema?: string): string {
  const other = new URL(url);
  other.pathname = `/${database}`;
  if (schema) other.searchParams.set('options', `-c search_path=${schema}`);
  return other.toString();
}

/** One statement on its own connection (CREATE and DROP DATABASE cannot run in a transaction or a pool's session). */
export async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
