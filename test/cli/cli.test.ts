import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, subpilotProgram } from '../../src/cli/main.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient } from '../support/dashboard-client.ts';
import { runCli, runCliProcess } from '../support/cli.ts';
import { engines, openTestDatabase, type TestDatabase } from '../support/engines.ts';

describe.each(engines)('the operator CLI on %s', (engine) => {
  let database: TestDatabase;
  const email = 'ops@example.com';

  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(() => database.drop());

  const subpilot = (args: string[], input?: string) => runCli(database, args, input);

  /** The real binary: exit codes and standard input as an operator's shell sees them. */
  const subpilotProcess = (args: string[], input?: string) => runCliProcess(args, database.env, { input });

  it('creates an account, grants credits, creates, lists and revokes a key', async () => {
    const account = await subpilotProcess(['accounts', 'create', '--email', email, '--password-stdin'], 'a long password\n');
    expect(account.code).toBe(0);
    const grant = await subpilot(['credits', 'grant', '--email', email, '--amount', '25', '--reason', 'trial']);
    const accountId = account.stdout.split(' ')[0];
    expect(grant).toMatchObject({ code: 0, stdout: `granted 25 credits to ${email} (${accountId}); balance after: 25\n` });
    expect((await subpilot(['credits', 'grant', '--email', email, '--amount', '1'])).stdout).toBe(`granted 1 credit to ${email} (${accountId}); balance after: 26\n`);

    const created = await subpilot(['keys', 'create', '--email', email, '--name', 'zapier']);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^ak_live_[0-9a-f]{64}$/);
    expect(created.stderr).not.toContain(token);

    const listed = await subpilot(['keys', 'list', '--email', email, '--json']);
    const keys = JSON.parse(listed.stdout);
    expect(keys).toEqual([
      {
        name: 'zapier',
        prefix: token.slice(0, 16),
        state: 'active',
        scopes: 'all',
        monthly_limit: null,
        expires_at: null,
        replaced_by: null,
        created_at: expect.any(String),
        last_used_at: null,
      },
    ]);
    expect(listed.stdout).not.toContain(token.slice(16));

    expect((await subpilot(['keys', 'revoke', '--email', email, '--prefix', token.slice(0, 16)])).code).toBe(0);
    const after = JSON.parse((await subpilot(['keys', 'list', '--email', email, '--json'])).stdout);
    expect(after[0].state).toBe('revoked');
  });

  it('keys list prints a header row above the keys, in aligned columns', async () => {
    const owner = 'header@example.com';
    await subpilot(['accounts', 'create', '--email', owner]);
    const empty = await subpilot(['keys', 'list', '--email', owner]);
    expect(empty).toMatchObject({ code: 0, stdout: 'NAME  PREFIX  STATE  SCOPES  MONTHLY LIMIT  EXPIRES  CREATED  LAST USED\n' });
    const token = (await subpilot(['keys', 'create', '--email', owner, '--name', 'n8n'])).stdout.trim();
    const [header, row, end] = (await subpilot(['keys', 'list', '--email', owner])).stdout.split('\n');
    expect(header).toMatch(/^NAME +PREFIX +STATE +SCOPES +MONTHLY LIMIT +EXPIRES +CREATED +LAST USED$/);
    expect(row).toMatch(new RegExp(`^n8n +${token.slice(0, 16)} +active +all +- +never +\\d{4}-\\S+ +never$`));
    expect(row!.indexOf(token.slice(0, 16))).toBe(header!.indexOf('PREFIX'));
    expect(end).toBe('');
  });

  it('accounts list shows email, id, balance, active keys and creation of every account, as a table or JSON', async () => {
    const first = (await subpilot(['accounts', 'create', '--email', 'list-a@example.com'])).stdout.split(' ')[0]!;
    await subpilot(['accounts', 'create', '--email', 'list-b@example.com']);
    await subpilot(['credits', 'grant', '--email', 'list-a@example.com', '--amount', '40']);
    await subpilot(['keys', 'create', '--email', 'list-a@example.com', '--name', 'one']);
    await subpilot(['keys', 'create', '--email', 'list-a@example.com', '--name', 'two']);
    await subpilot(['keys', 'revoke', '--email', 'list-a@example.com', '--name', 'two']);

    const json = JSON.parse((await subpilot(['accounts', 'list', '--json'])).stdout) as Record<string, unknown>[];
    const a = json.find((row) => row.email === 'list-a@example.com');
    expect(a).toEqual({ email: 'list-a@example.com', id: first, balance: 40, keys: 1, created_at: expect.any(String) });
    expect(json.find((row) => row.email === 'list-b@example.com')).toMatchObject({ balance: 0, keys: 0 });
    expect(json.map((row) => row.created_at)).toEqual(json.map((row) => row.created_at).sort());

    const table = (await subpilot(['accounts', 'list'])).stdout.split('\n');
    expect(table[0]).toMatch(/^EMAIL +ID +BALANCE +KEYS +CREATED$/);
    expect(table).toContainEqual(expect.stringMatching(new RegExp(`^list-a@example\\.com +${first} +40 +1 +\\d{4}-`)));
  });

  it('accounts create without a password says how to give the account one', async () => {
    const created = await subpilot(['accounts', 'create', '--email', 'nopassword@example.com']);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('subpilot accounts set-password --email nopassword@example.com --password-stdin');
  });

  it('set-password refuses a short password and an unknown account with one line each', async () => {
    await subpilot(['accounts', 'create', '--email', 'short@example.com']);
    const short = await subpilot(['accounts', 'set-password', '--email', 'short@example.com', '--password-stdin'], 'tiny\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toBe('subpilot: A password has at least 10 characters.\n');
    const unknown = await subpilot(['accounts', 'set-password', '--email', 'ghost@example.com', '--password-stdin'], 'a long password\n');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^subpilot: No account with email ghost@example.com/);
  });

  it.each([
    ['an unknown account', ['credits', 'grant', '--email', 'nobody@example.com', '--amount', '5'], /No account/],
    ['a bad amount', ['credits', 'grant', '--email', email, '--amount', '-3'], /amount/],
    ['a zero amount', ['credits', 'grant', '--email', email, '--amount', '0'], /amount/],
  ])('exits non-zero with one clear line for %s', async (_label, args, message) => {
    const result = await subpilot(args);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('refuses a second active key with the same name', async () => {
    await subpilot(['keys', 'create', '--email', email, '--name', 'make']);
    const again = await subpilot(['keys', 'create', '--email', email, '--name', 'make']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already exists/);
    expect(again.stdout).toBe('');
  });

  it('a bad environment value stops start-up with one line naming the variable', async () => {
    const child = await runCliProcess(['serve'], { ...database.env, PORT: 'eighty' });
    expect(child.code).not.toBe(0);
    expect(child.stderr.trim()).toMatch(/^subpilot: PORT must be/);
  });
});

/** Every command of the tree with the words that run it (`['keys', 'list']`). */
function commandsOf(command: Command, path: string[] = []): { command: Command; path: string[] }[] {
  return [{ command, path }, ...command.commands.flatMap((sub) => commandsOf(sub, [...path, sub.name()]))];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the CLI without a database', () => {
  async function subpilot(args: string[]) {
    let stdout = '';
    const code = await main({
      argv: args,
      // No DATABASE_URL that could be opened: help and version must not need one.
      env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      stdin: Readable.from([]),
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => undefined },
    });
    return { code, stdout };
  }

  it('--help of every command describes it, its subcommands and every one of its options', async () => {
    const silent = { argv: [], env: {}, stdin: Readable.from([]), stdout: { write: () => 0 }, stderr: { write: () => 0 } };
    const all = commandsOf(subpilotProgram(silent));
    expect(all.map(({ path }) => path.join(' '))).toEqual(expect.arrayContaining(['accounts set-password', 'accounts list']));
    for (const { command, path } of all) {
      const where = `subpilot ${path.join(' ')}`;
      expect(command.description(), where).not.toBe('');
      const help = await subpilot([...path, '--help']);
      expect(help.code, where).toBe(0);
      for (const option of command.options) {
        expect(option.description, `${where} ${option.flags}`).not.toBe('');
        expect(help.stdout, `${where} ${option.flags}`).toMatch(new RegExp(`${escapeRegExp(option.flags)}\\s+\\S`));
      }
      for (const sub of command.commands) {
        expect(help.stdout, `${where} ${sub.name()}`).toMatch(new RegExp(`\\n  ${sub.name()}( \\[options\\])?\\s{2,}\\S`));
      }
    }
  });

  it('a database that cannot be reached stops a command with one line saying where and what to check', async () => {
    let stderr = '';
    const code = await main({
      argv: ['accounts', 'list'],
      env: { DATABASE_URL: 'postgres://nobody:hunter2@127.0.0.1:1/none' },
      stdin: Readable.from([]),
      stdout: { write: () => undefined },
      stderr: { write: (text: string) => (stderr += text) },
    });
    expect(code).toBe(1);
    expect(stderr).toBe('subpilot: the database cannot be reached (connect ECONNREFUSED 127.0.0.1:1): is PostgreSQL running there, and is DATABASE_URL right?\n');
  });

  it('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(await subpilot(['--version'])).toEqual({ code: 0, stdout: `${version}\n` });
  });
});

describe.each(engines)('CLI passwords and the dashboard on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false });
  });
  afterAll(() => app.close());

  const subpilot = async (args: string[], input?: string) => (await runCli(app.database, args, input)).code;

  it('an account made by accounts create without a password logs in to the dashboard after set-password', async () => {
    const email = `cli-made-${engine}@example.com`;
    expect(await subpilot(['accounts', 'create', '--email', email])).toBe(0);
    expect((await new DashboardClient(app.url).logIn(email, 'chosen by the operator')).status).toBe(400);

    expect(await subpilot(['accounts', 'set-password', '--email', email, '--password-stdin'], 'chosen by the operator\n')).toBe(0);
    const browser = new DashboardClient(app.url);
    const loggedIn = await browser.logIn(email, 'chosen by the operator');
    expect(loggedIn.location).toBe('/dashboard/keys');
    expect((await browser.get('/dashboard/keys')).status).toBe(200);
  });

  it('set-password replaces the old password and ends the sessions logged in with it', async () => {
    const email = `cli-reset-${engine}@example.com`;
    await app.services.accounts.createAccount(email, 'the old password');
    const before = new DashboardClient(app.url);
    await before.logIn(email, 'the old password');
    expect((await before.get('/dashboard/keys')).status).toBe(200);

    expect(await subpilot(['accounts', 'set-password', '--email', email, '--password-stdin'], 'the new password\n')).toBe(0);
    expect((await before.get('/dashboard/keys')).location).toBe('/dashboard/login');
    expect((await new DashboardClient(app.url).logIn(email, 'the old password')).status).toBe(400);
    expect((await new DashboardClient(app.url).logIn(email, 'the new password')).location).toBe('/dashboard/keys');
  });
});
