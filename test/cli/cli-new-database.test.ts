import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliProcess } from '../support/cli.ts';
import { engines, openTestDatabase, type Engine } from '../support/engines.ts';
import { startSubpilot } from '../support/processes.ts';
import { eventually } from '../support/receiver.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The tables of a SQLite file, read without writing to it; none when there is no file. */
function sqliteTables(path: string): string[] {
  if (!existsSync(path)) return [];
  const file = new SQLite(path, { readonly: true });
  try {
    return file.prepare(`select name from sqlite_master where type = 'table' order by name`).pluck().all() as string[];
  } finally {
    file.close();
  }
}

/** A database subpilot never set up, what the CLI should say about where it is, and what is in it. */
interface NewDatabase {
  env: Record<string, string>;
  /** What the refusal must contain to say where it looked. */
  where: RegExp;
  /** A secret in DATABASE_URL that no message may show. */
  password?: string;
  tables(): Promise<string[]>;
  /** Anything a refused command could have made: a file or directory for SQLite, tables for PostgreSQL. */
  leftovers(): Promise<string[]>;
  drop(): Promise<void>;
}

async function newDatabase(engine: Engine): Promise<NewDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'subpilot-new-'));
    const path = join(dir, 'data', 'subpilot.sqlite');
    return {
      env: { DATABASE_URL: `sqlite:${path}` },
      where: new RegExp(` ${escapeRegExp(path)}\\b`),
      tables: async () => sqliteTables(path),
      leftovers: async () => readdirSync(dir),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = await openTestDatabase('postgres');
  const url = new URL(database.env.DATABASE_URL!);
  // The test server trusts local connections, so a password it ignores still proves none is printed.
  if (!url.password) url.password = 'never-shown-anywhere';
  const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]!;
  const tables = async () =>
    (await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema() order by 1`.execute(database.db))
      .rows.map((row) => row.name);
  return {
    env: { DATABASE_URL: url.toString() },
    where: new RegExp(`PostgreSQL database "${escapeRegExp(url.pathname.slice(1))}" on \\S+:\\d+ .*schema "${schema}"`),
    password: url.password,
    tables,
    leftovers: tables,
    drop: () => database.drop(),
  };
}

const email = 'someone@example.com';

/** Every command that works on an existing database only, with what it reads from standard input. */
const REFUSING: [string, string[], string?][] = [
  ['accounts set-password', ['accounts', 'set-password', '--email', email, '--password-stdin'], 'a long password\n'],
  ['accounts list', ['accounts', 'list']],
  ['credits grant', ['credits', 'grant', '--email', email, '--amount', '5']],
  ['keys create', ['keys', 'create', '--email', email, '--name', 'zapier']],
  ['keys roll', ['keys', 'roll', '--email', email, '--name', 'zapier']],
  ['keys list', ['keys', 'list', '--email', email]],
  ['keys revoke', ['keys', 'revoke', '--email', email, '--name', 'zapier']],
  ['monitors list', ['monitors', 'list', '--email', email]],
];

describe.each(engines)('a %s database that subpilot never set up', (engine) => {
  let fresh: NewDatabase;
  beforeEach(async () => {
    fresh = await newDatabase(engine);
  });
  afterEach(() => fresh.drop());

  it.each(REFUSING)(
    'subpilot %s refuses it in one line that says where it looked and how to name the right one, and creates nothing',
    async (_command, args, input) => {
      const result = await runCliProcess(args, fresh.env, { input });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^subpilot: [^\n]+\n$/);
      expect(result.stderr).toMatch(fresh.where);
      expect(result.stderr).toMatch(/DATABASE_URL=/);
      if (fresh.password) expect(result.stderr).not.toContain(fresh.password);
      expect(await fresh.leftovers()).toEqual([]);
    },
  );

  it('accounts create sets it up, and then the other commands use it', async () => {
    expect((await runCliProcess(['accounts', 'create', '--email', email], fresh.env)).code).toBe(0);
    expect(await fresh.tables()).toContain('accounts');
    const listed = await runCliProcess(['accounts', 'list', '--json'], fresh.env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ email })]);
  });

  it.each(['serve', 'worker'])('subpilot %s still sets it up before it starts', async (command) => {
    const { child } = await startSubpilot([command], fresh.env);
    try {
      // A process that loads the service and migrates a new database: on a loaded 2-core machine that took
      // over 15 s. The wait ends as soon as the tables are there, so a generous bound costs nothing.
      await eventually(async () => ((await fresh.tables()).includes('accounts') ? true : undefined), 50_000);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    }
  }, 60_000);
});

describe('subpilot without DATABASE_URL', () => {
  let checkout: string;
  beforeEach(() => {
    checkout = mkdtempSync(join(tmpdir(), 'subpilot-checkout-'));
    mkdirSync(join(checkout, 'src'));
  });
  afterEach(() => rmSync(checkout, { recursive: true, force: true }));

  it('run from a directory with no database names the absolute file it looked for and makes no data directory there', async () => {
    const src = join(checkout, 'src');
    const result = await runCliProcess(['keys', 'list', '--email', email], { DATABASE_URL: undefined }, { cwd: src });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^subpilot: [^\n]+\n$/);
    expect(result.stderr).toContain(` ${join(src, 'data', 'subpilot.sqlite')}`);
    expect(result.stderr).toMatch(/DATABASE_URL=sqlite:\//);
    expect(result.stderr).toContain('npm start');
    expect(readdirSync(src)).toEqual([]);
  });
});

describe('a SQLite file that subpilot did not make', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'subpilot-other-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is refused by accounts list and keeps only its own tables', async () => {
    const path = join(dir, 'other.sqlite');
    const other = new SQLite(path);
    other.exec('create table notes (body text)');
    other.close();
    const result = await runCliProcess(['accounts', 'list'], { DATABASE_URL: `sqlite:${path}` });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^subpilot: [^\n]+\n$/);
    expect(result.stderr).toContain(path);
    expect(sqliteTables(path)).toEqual(['notes']);
    expect(readdirSync(dir)).toEqual(['other.sqlite']);
  });
});
