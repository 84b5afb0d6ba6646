import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { engines, openTestDatabase, type TestDatabase } from '../support/engines.ts';

const run = promisify(execFile);

describe.each(engines)('the operator CLI on %s', (engine) => {
  let database: TestDatabase;
  const email = 'ops@example.com';

  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(() => database.drop());

  /**
   * Runs the CLI in this process, as bin/subpilot.mjs does, and reports what the binary would exit
   * with. Starting Node and tsx per command cost about a second; a few tests still run the binary.
   */
  async function subpilot(args: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await main({
      argv: args,
      env: { ...process.env, ...database.env, LOG_LEVEL: 'silent' },
      stdin: Readable.from([]),
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
    });
    return { code, stdout, stderr };
  }

  /** The real binary in a child process: exit codes and standard input as an operator's shell sees them. */
  async function subpilotProcess(args: string[], input?: string) {
    const child = run(process.execPath, ['bin/subpilot.mjs', ...args], {
      env: { ...process.env, ...database.env, LOG_LEVEL: 'silent' },
    });
    if (input !== undefined) {
      child.child.stdin!.end(input);
    }
    try {
      const { stdout, stderr } = await child;
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it('creates an account, grants credits, creates, lists and revokes a key', async () => {
    const account = await subpilotProcess(['accounts', 'create', '--email', email, '--password-stdin'], 'a long password\n');
    expect(account.code).toBe(0);
    const grant = await subpilot(['credits', 'grant', '--email', email, '--amount', '25', '--reason', 'trial']);
    expect(grant).toMatchObject({ code: 0, stdout: '25\n' });

    const created = await subpilot(['keys', 'create', '--email', email, '--name', 'zapier']);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^ak_live_[0-9a-f]{64}$/);
    expect(created.stderr).not.toContain(token);

    const listed = await subpilot(['keys', 'list', '--email', email, '--json']);
    const keys = JSON.parse(listed.stdout);
    expect(keys).toEqual([
      { name: 'zapier', prefix: token.slice(0, 16), state: 'active', created_at: expect.any(String), last_used_at: null },
    ]);
    expect(listed.stdout).not.toContain(token.slice(16));

    expect((await subpilot(['keys', 'revoke', '--email', email, '--prefix', token.slice(0, 16)])).code).toBe(0);
    const after = JSON.parse((await subpilot(['keys', 'list', '--email', email, '--json'])).stdout);
    expect(after[0].state).toBe('revoked');
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
    const child = await run(process.execPath, ['bin/subpilot.mjs', 'serve'], {
      env: { ...process.env, ...database.env, PORT: 'eighty' },
    }).catch((error) => error as { code: number; stderr: string });
    expect((child as { code: number }).code).not.toBe(0);
    expect((child as { stderr: string }).stderr.trim()).toMatch(/^subpilot: PORT must be/);
  });
});
