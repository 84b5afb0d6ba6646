import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { DatabaseTarget } from '../../src/shared/config/config.ts';
import { createDatabase, type Database } from '../../src/shared/db/database.ts';
import { adminQuery, databaseUrl, TEMPLATE_SCHEMA } from './templates.ts';

export type Engine = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (see test/support/global-setup.ts). */
export const engines: Engine[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase {
  target: DatabaseTarget;
  db: Database;
  /** Environment that points a child `subpilot` process at the same database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A fresh database: a temporary SQLite file, or a new database in the test PostgreSQL. `migrated`: a
 * copy of the run's migrated template (test/support/templates.ts) instead of an empty one.
 */
export async function openTestDatabase(engine: Engine, options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'subpilot-test-'));
    const path = join(dir, 'test.sqlite');
    if (options.migrated) copyFileSync(inject('databaseTemplates').sqlite, path);
    return opened({ dialect: 'sqlite', path }, async () => rmSync(dir, { recursive: true, force: true }));
  }
  // A PostgreSQL database of its own: suites run in parallel, and Kysely's migrator reads the catalog
  // of the whole database, which fails while another suite drops its tables in the same one. The
  // migrated one is a copy of the template, whose schema is renamed to a name unique to the test
  // (the suites' application names and pg-boss's schema are made from it).
  const url = process.env.TEST_DATABASE_URL!;
  const id = randomBytes(6).toString('hex');
  const [database, schema] = [`subpilot_test_${id}`, `t_${id}`];
  if (options.migrated) {
    await adminQuery(url, `CREATE DATABASE ${database} TEMPLATE ${inject('databaseTemplates').postgres!}`);
    await adminQuery(databaseUrl(url, database), `ALTER SCHEMA ${TEMPLATE_SCHEMA} RENAME TO ${schema}`);
  } else {
    await adminQuery(url, `CREATE DATABASE ${database}`);
    await adminQuery(databaseUrl(url, database), `CREATE SCHEMA ${schema}`);
  }
  return opened({ dialect: 'postgres', url: databaseUrl(url, database, schema) }, () => adminQuery(url, `DROP DATABASE ${database} WITH (FORCE)`));
}

/** The database at `target`, open, with the environment a child process needs and what drops it. */
function opened(target: DatabaseTarget, remove: () => Promise<void>): TestDatabase {
  const db = createDatabase(target);
  return {
    target,
    db,
    env: { DATABASE_URL: target.dialect === 'sqlite' ? `sqlite:${target.path}` : target.url },
    async drop() {
      await db.destroy().catch(() => undefined);
      await remove();
    },
  };
}
