import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { engines, openTestDatabase, type TestDatabase } from '../support/engines.ts';

describe.each(engines)('the operator CLI’s key controls on %s', (engine) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(() => database.drop());

  const subpilot = (args: string[]) => runCli(database, args);

  it('keys create takes scopes, a monthly limit and an expiry, and keys list shows them', async () => {
    const owner = 'controls@example.com';
    await subpilot(['accounts', 'create', '--email', owner]);
    const args = ['--scopes', 'scrape,read', '--monthly-limit', '500', '--expires', '2099-01-01'];
    const created = await subpilot(['keys', 'create', '--email', owner, '--name', 'n8n', ...args]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^ak_live_[0-9a-f]{64}\n$/);
    const [key] = JSON.parse((await subpilot(['keys', 'list', '--email', owner, '--json'])).stdout);
    expect(key).toMatchObject({ state: 'active', scopes: 'read,scrape', monthly_limit: 500, expires_at: '2099-01-02T00:00:00.000Z' });
    const row = (await subpilot(['keys', 'list', '--email', owner])).stdout.split('\n')[1];
    expect(row).toMatch(/^n8n +ak_live_\S+ +active +read,scrape +500 +2099-01-02T00:00:00\.000Z +\d{4}-/);
  });

  it.each([
    ['a name that is not a scope', ['--scopes', 'read,admin'], /"admin" is not a scope/],
    ['a monthly limit that is not a whole number', ['--monthly-limit', '2.5'], /whole number/],
    ['a monthly limit of zero', ['--monthly-limit', '0'], /1 to 1,000,000,000/],
    ['an expiry in the past', ['--expires', '2020-01-01'], /not in the future/],
  ])('keys create refuses %s and creates no key', async (_label, args, message) => {
    const owner = `refused-${args[0]}-${args[1]}@example.com`;
    await subpilot(['accounts', 'create', '--email', owner]);
    const result = await subpilot(['keys', 'create', '--email', owner, '--name', 'bad', ...args]);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(JSON.parse((await subpilot(['keys', 'list', '--email', owner, '--json'])).stdout)).toEqual([]);
  });

  it('keys roll prints the new token once, says when the old key stops, and keys list shows which key replaced it', async () => {
    const owner = 'roll@example.com';
    await subpilot(['accounts', 'create', '--email', owner]);
    const old = (await subpilot(['keys', 'create', '--email', owner, '--name', 'make', '--scopes', 'read', '--monthly-limit', '9'])).stdout.trim();
    const rolled = await subpilot(['keys', 'roll', '--email', owner, '--prefix', old.slice(0, 16), '--overlap', '1h']);
    expect(rolled.code).toBe(0);
    const token = rolled.stdout.trim();
    expect(token).toMatch(/^ak_live_[0-9a-f]{64}$/);
    expect(rolled.stderr).not.toContain(token);
    expect(rolled.stderr).toMatch(new RegExp(`${old.slice(0, 16)}….*\n.*stops working at \\d{4}-\\d\\d-\\d\\dT`));
    const keys = JSON.parse((await subpilot(['keys', 'list', '--email', owner, '--json'])).stdout);
    expect(keys).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ prefix: token.slice(0, 16), state: 'active', scopes: 'read', monthly_limit: 9, replaced_by: null }),
        expect.objectContaining({ prefix: old.slice(0, 16), state: 'replaced', replaced_by: token.slice(0, 16) }),
      ]),
    );
    const again = await subpilot(['keys', 'roll', '--email', owner, '--prefix', old.slice(0, 16), '--overlap', 'now']);
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(again.stderr).toMatch(/already rolled keys cannot be/);
    const wrong = await subpilot(['keys', 'roll', '--email', owner, '--name', 'make', '--overlap', '2d']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/now, 1h, 24h, 7d/);
  });
});
