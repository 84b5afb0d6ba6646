import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '../../src/modules/keys/keys.usecases.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';

describe.each(engines)('per-account rate limits on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { RATE_LIMIT_PER_MINUTE: '4', RATE_LIMIT_PER_ACCOUNT_PER_MINUTE: '6' } });
  });
  afterAll(() => app.close());

  it('new keys do not raise the limit: all keys of one account share the per-account budget, and the 429 names it', async () => {
    const { accountId, token } = await app.accountWithKey(1);
    const { token: second } = await app.services.keys.createKey(accountId, 'second');
    const { token: third } = await app.services.keys.createKey(accountId, 'third');
    const statuses: number[] = [];
    for (const t of [token, token, token, second, second, second]) statuses.push((await app.api('GET', '/api/v1/balance', { token: t })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    const throttled = await app.api('GET', '/api/v1/balance', { token: third });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await throttled.json();
    expect(body).toMatchObject({ code: 'rate_limit.exceeded', policy: 'per-account' });
    expect(body.detail).toMatch(/account/);
    const other = await app.accountWithKey(1);
    expect((await app.api('GET', '/api/v1/balance', { token: other.token })).status).toBe(200);
  });

  it('every answer reports both policies, per key and per account (IETF RateLimit headers draft)', async () => {
    const { token } = await app.accountWithKey(1);
    const response = await app.api('GET', '/api/v1/balance', { token });
    expect(response.headers.get('ratelimit-policy')).toBe('"per-key";q=4;w=60, "per-account";q=6;w=60');
    expect(response.headers.get('ratelimit')).toMatch(/^"per-key";r=3;t=\d+, "per-account";r=5;t=\d+$/);
  });

  it('the per-key limit still answers first for one key, naming the key', async () => {
    const { token } = await app.accountWithKey(1);
    for (let i = 0; i < 4; i++) await app.api('GET', '/api/v1/balance', { token });
    const body = await (await app.api('GET', '/api/v1/balance', { token })).json();
    expect(body).toMatchObject({ code: 'rate_limit.exceeded', policy: 'per-key' });
  });
});

describe.each(engines)('a cap on active keys per account on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(() => app.close());

  it(`the ${MAX_ACTIVE_KEYS_PER_ACCOUNT + 1}th active key is refused with keys.limit_reached, even when requested all at once`, async () => {
    const { accountId } = await app.accountWithKey(0);
    const results = await Promise.allSettled(
      Array.from({ length: MAX_ACTIVE_KEYS_PER_ACCOUNT + 10 }, (_, i) => app.services.keys.createKey(accountId, `k${i}`)),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(refused).toHaveLength(11);
    for (const error of refused) expect(error).toMatchObject({ code: 'keys.limit_reached', status: 409 });
    const active = (await app.services.keys.listKeys(accountId)).filter((k) => !k.revoked_at);
    expect(active).toHaveLength(MAX_ACTIVE_KEYS_PER_ACCOUNT);
  });

  it('the dashboard refuses the key past the cap with the reason beside the form, and shows no token', async () => {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail();
    await browser.signUp(email);
    const accountId = (await app.services.accounts.requireByEmail(email)).id;
    for (let i = 0; i < MAX_ACTIVE_KEYS_PER_ACCOUNT; i++) await app.services.keys.createKey(accountId, `k${i}`);
    const refused = await browser.submit('/dashboard/keys', '/dashboard/keys', { name: 'one-too-many' });
    expect(refused.status).toBe(409);
    expect(refused.body).toContain(`at most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys`);
    expect(refused.body).not.toMatch(/ak_live_[0-9a-f]{64}/);
  });

  it('the operator CLI refuses the key past the cap with one clear line and a non-zero exit', async () => {
    const { accountId, email } = await app.accountWithKey(0);
    for (let i = 1; i < MAX_ACTIVE_KEYS_PER_ACCOUNT; i++) await app.services.keys.createKey(accountId, `k${i}`);
    const run = promisify(execFile);
    const failed = await run(process.execPath, ['bin/subpilot.mjs', 'keys', 'create', '--email', email, '--name', 'one-too-many'], {
      env: { ...process.env, ...app.database.env, LOG_LEVEL: 'silent' },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect((failed as { stderr: string }).stderr).toBe(
      `subpilot: An account may hold at most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys, a rolled key counting until its overlap ends. Revoke a key you no longer use, then create the new one.\n`,
    );
  }, 60_000);

  it('revoking a key frees a place for a new one', async () => {
    const { accountId } = await app.accountWithKey(0);
    for (let i = 1; i < MAX_ACTIVE_KEYS_PER_ACCOUNT; i++) await app.services.keys.createKey(accountId, `k${i}`);
    await expect(app.services.keys.createKey(accountId, 'one-too-many')).rejects.toMatchObject({ code: 'keys.limit_reached' });
    await app.services.keys.revokeKey(accountId, { name: 'k1' });
    await expect(app.services.keys.createKey(accountId, 'one-too-many')).resolves.toBeTruthy();
  });
});
