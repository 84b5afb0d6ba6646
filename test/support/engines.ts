import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
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
 * A fresh database: a temporary SQLite file, or a new schema in the test PostgreSQL. `migrated`: a
 * copy of the run's migrated template (test/support/templates.ts) instead of an empty one.
 */
export async function openTestDatabase(engine: Engine, options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  if (engine === 'postgres' && options.migrated) return copyPostgresTemplate();
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'subpilot-test-'));
    const target: DatabaseTarget = { dialect: 'sqlite', path: join(dir, 'test.sqlite') };
    if (options.migrated) copyFileSync(inject('databaseTemplates').sqlite, target.path);
    const db = createDatabase(target);
    return {
      target,
      db,
      env: { DATABASE_URL: `sqlite:${target.path}` },
      async drop() {
        await db.destroy().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  const target: DatabaseTarget = { dialect: 'postgres', url: withSchema.toString() };
  const db = createDatabase(target);
  return {
    target,
    db,
    env: { DATABASE_URL: target.url },
    async drop() {
      await db.destroy().catch(() => undefined);
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.query(`DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
      await cleanup.end();
    },
  };
}

/**
 * A database of its own, created from the migrated template, whose schema is renamed to a name of its
 * own: DATABASE_URL still names a schema unique to the test, as suites and pg-boss expect.
 */
async function copyPostgresTemplate(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL!;
  const template = inject('databaseTemplates').postgres!;
  const id = randomBytes(6).toString('hex');
  const [database, schema] = [`subpilot_test_${id}`, `t_${id}`];
  await adminQuery(url, `CREATE DATABASE ${database} TEMPLATE ${template}`);
  await adminQuery(databaseUrl(url, database), `ALTER SCHEMA ${TEMPLATE_SCHEMA} RENAME TO ${schema}`);
  const target: DatabaseTarget = { dialect: 'postgres', url: databaseUrl(url, database, schema) };
  const db = createDatabase(target);
  return {
    target,
    db,
    env: { DATABASE_URL: target.url },
    async drop() {
      await db.destroy().catch(() => undefined);
      await adminQuery(url, `DROP DATABASE ${database} WITH (FORCE)`);
    },
  };
}
