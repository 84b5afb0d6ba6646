import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

describe.each(engines)('API keys (spec sections 2 and 3) on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(() => app.close());

  it('2: the database holds the fingerprint and the prefix, never the token', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    const rows = await app.database.db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token.slice(16));
    expect(rows[0]!.prefix).toBe(token.slice(0, 16));
  });

  it('2.3: one key identifies exactly one account, and each account sees only its own balance', async () => {
    const a = await app.accountWithKey(7);
    const b = await app.accountWithKey(9);
    expect(await (await app.api('GET', '/api/v1/balance', { token: a.token })).json()).toEqual({ balance: 7, owed: 0 });
    expect(await (await app.api('GET', '/api/v1/balance', { token: b.token })).json()).toEqual({ balance: 9, owed: 0 });
  });

  it('an active key name is unique per account, and can be reused once the old key is revoked', async () => {
    const { accountId } = await app.accountWithKey(0);
    await app.services.keys.createKey(accountId, 'n8n');
    await expect(app.services.keys.createKey(accountId, 'n8n')).rejects.toMatchObject({ code: 'keys.name_taken' });
    await app.services.keys.revokeKey(accountId, { name: 'n8n' });
    await expect(app.services.keys.createKey(accountId, 'n8n')).resolves.toBeTruthy();
    const states = (await app.services.keys.listKeys(accountId)).filter((k) => k.name === 'n8n').map((k) => !!k.revoked_at);
    expect(states.sort()).toEqual([false, true]);
  });

  it('revoking with no key named revokes nothing and says why', async () => {
    const { accountId, token } = await app.accountWithKey(1);
    await app.services.keys.createKey(accountId, 'zapier');
    const refusal = /exactly one of id, name or prefix; got none/;
    // @ts-expect-error the selector type itself demands exactly one of id, name or prefix
    await expect(app.services.keys.revokeKey(accountId, {})).rejects.toThrow(refusal);
    // @ts-expect-error what `{ name: options.name }` becomes when an option was left out
    await expect(app.services.keys.revokeKey(accountId, { name: undefined })).rejects.toThrow(refusal);
    const keys = await app.services.keys.listKeys(accountId);
    expect(keys.map((k) => k.revoked_at)).toEqual([null, null]);
    expect((await app.api('GET', '/api/v1/balance', { token })).status).toBe(200);
  });

  it('3: revocation is immediate and the revoked key stays listed as revoked', async () => {
    const { accountId, token } = await app.accountWithKey(1);
    const [key] = await app.services.keys.listKeys(accountId);
    await app.services.keys.revokeKey(accountId, { prefix: key!.prefix });
    expect((await app.api('GET', '/api/v1/balance', { token })).status).toBe(401);
    const [after] = await app.services.keys.listKeys(accountId);
    expect(after!.revoked_at).not.toBeNull();
  });

  it('last used is recorded when a key is used', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    expect((await app.services.keys.listKeys(accountId))[0]!.last_used_at).toBeNull();
    await app.api('GET', '/api/v1/balance', { token });
    expect((await app.services.keys.listKeys(accountId))[0]!.last_used_at).not.toBeNull();
  });
});
