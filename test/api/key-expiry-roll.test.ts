import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '../../src/modules/keys/keys.usecases.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

const HOUR = 3600_000;

describe.each(engines)('key expiry and roll on %s', (engine) => {
  let app: TestApp;
  // A pinned clock the tests move forward; every service reads it.
  let now = new Date('2026-03-01T12:00:00Z');
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));

  beforeAll(async () => {
    app = await startTestApp(engine, { overrides: { clock: () => now }, worker: false });
  });
  afterAll(() => app.close());

  const balanceWith = (token: string) => app.api('GET', '/api/v1/balance', { token });

  async function expectRefused(token: string) {
    const response = await balanceWith(token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="subpilot", error="invalid_token"');
    return response.json();
  }

  it('an expired key gets the same 401 as a revoked one on its next request', async () => {
    const { accountId } = await app.accountWithKey(5);
    const expiring = await app.services.keys.createKey(accountId, 'contractor', { expiresAt: new Date(now.getTime() + HOUR).toISOString() });
    const revoked = await app.services.keys.createKey(accountId, 'old');
    await app.services.keys.revokeKey(accountId, { name: 'old' });
    expect((await balanceWith(expiring.token)).status).toBe(200);
    advance(HOUR);
    const expired = await expectRefused(expiring.token);
    expect(expired).toEqual(await expectRefused(revoked.token));
    expect(expired.code).toBe('auth.invalid_key');
    const listed = await app.services.keys.listKeys(accountId);
    expect(listed.find((k) => k.name === 'contractor')!.state).toBe('expired');
  });

  it('an expiry given as a date means the key works through that UTC day, and an instant keeps its offset', async () => {
    const { accountId } = await app.accountWithKey(0);
    const day = await app.services.keys.createKey(accountId, 'day', { expiresAt: '2027-01-01' });
    expect(day.key.expires_at).toBe('2027-01-02T00:00:00.000Z');
    const offset = await app.services.keys.createKey(accountId, 'offset', { expiresAt: '2027-01-01T09:00:00+02:00' });
    expect(offset.key.expires_at).toBe('2027-01-01T07:00:00.000Z');
  });

  it.each([
    ['a past instant', '2020-01-01T00:00:00Z', /not in the future/],
    ['a word instead of a date', 'tomorrow', /not a date/],
    ['a day that does not exist', '2027-02-30', /not a date/],
    ['a month that does not exist, as a date alone', '2027-13-01', /not a date/],
    ['a month that does not exist, in an instant', '2027-13-01T09:00:00Z', /not a date/],
    ['a time without a zone', '2027-01-01T09:00:00', /not a date/],
  ])('an expiry of %s is refused with 422 keys.invalid_expiry', async (_label, expiresAt, message) => {
    const { accountId } = await app.accountWithKey(0);
    await expect(app.services.keys.createKey(accountId, 'bad', { expiresAt })).rejects.toMatchObject({
      status: 422,
      code: 'keys.invalid_expiry',
      message: expect.stringMatching(message),
    });
  });

  it.each([0, -5, 1.5, 1_000_000_001])('a monthly limit of %s is refused with 422 keys.invalid_limit', async (monthlyCreditLimit) => {
    const { accountId } = await app.accountWithKey(0);
    await expect(app.services.keys.createKey(accountId, 'bad', { monthlyCreditLimit })).rejects.toMatchObject({
      status: 422,
      code: 'keys.invalid_limit',
    });
  });

  it('an expired key no longer counts toward the key cap, but keeps its name until it is revoked', async () => {
    const { accountId } = await app.accountWithKey(0);
    const soon = new Date(now.getTime() + HOUR).toISOString();
    for (let i = 1; i < MAX_ACTIVE_KEYS_PER_ACCOUNT; i++) await app.services.keys.createKey(accountId, `k${i}`, { expiresAt: soon });
    await expect(app.services.keys.createKey(accountId, 'one more')).rejects.toMatchObject({ code: 'keys.limit_reached' });
    advance(HOUR);
    await expect(app.services.keys.createKey(accountId, 'one more')).resolves.toBeTruthy();
    await expect(app.services.keys.createKey(accountId, 'k1')).rejects.toMatchObject({
      code: 'keys.name_taken',
      message: expect.stringContaining('has expired but keeps its name until it is revoked'),
    });
    await app.services.keys.revokeKey(accountId, { name: 'k1' });
    await expect(app.services.keys.createKey(accountId, 'k1')).resolves.toBeTruthy();
  });

  it('a roll with a 24-hour overlap: both keys work, and after 24 hours only the new one', async () => {
    const { accountId } = await app.accountWithKey(7);
    const old = await app.services.keys.createKey(accountId, 'zapier', { scopes: ['read', 'scrape'], monthlyCreditLimit: 50 });
    const rolled = await app.services.keys.rollKey(accountId, { prefix: old.key.prefix }, '24h');
    expect(rolled.token).toMatch(/^ak_live_[0-9a-f]{64}$/);
    expect(rolled.key).toMatchObject({ name: 'zapier', scopes: 'read scrape', monthly_credit_limit: 50, expires_at: null, replaced_by: null });
    const overlapEnds = new Date(now.getTime() + 24 * HOUR).toISOString();
    expect(rolled.replaced).toMatchObject({ id: old.key.id, replaced_by: rolled.key.id, expires_at: overlapEnds });

    expect((await balanceWith(old.token)).status).toBe(200);
    expect((await balanceWith(rolled.token)).status).toBe(200);
    const states = (await app.services.keys.listKeys(accountId)).filter((k) => k.name === 'zapier').map((k) => [k.prefix, k.state]);
    expect(states).toEqual(expect.arrayContaining([[old.key.prefix, 'replaced'], [rolled.key.prefix, 'active']]));

    advance(24 * HOUR - 1000);
    expect((await balanceWith(old.token)).status).toBe(200);
    advance(1000);
    await expectRefused(old.token);
    expect((await balanceWith(rolled.token)).status).toBe(200);
  });

  it("a roll with the overlap 'now' stops the old key at once", async () => {
    const { accountId, token } = await app.accountWithKey(1);
    const [key] = await app.services.keys.listKeys(accountId);
    const rolled = await app.services.keys.rollKey(accountId, { id: key!.id }, 'now');
    await expectRefused(token);
    expect((await balanceWith(rolled.token)).status).toBe(200);
  });

  it('a roll keeps the old expiry when it comes before the end of the overlap, and gives the new key the same lifetime', async () => {
    const { accountId } = await app.accountWithKey(0);
    const created = now.getTime();
    const old = await app.services.keys.createKey(accountId, 'weekly', { expiresAt: new Date(created + 48 * HOUR).toISOString() });
    advance(47 * HOUR);
    const rolled = await app.services.keys.rollKey(accountId, { name: 'weekly' }, '7d');
    expect(rolled.replaced.expires_at).toBe(old.key.expires_at);
    expect(rolled.key.expires_at).toBe(new Date(now.getTime() + 48 * HOUR).toISOString());
  });

  it('a key can be rolled once: rolling it again is a 404, and its name now rolls its replacement', async () => {
    const { accountId } = await app.accountWithKey(0);
    const old = await app.services.keys.createKey(accountId, 'n8n');
    const first = await app.services.keys.rollKey(accountId, { name: 'n8n' }, '1h');
    await expect(app.services.keys.rollKey(accountId, { id: old.key.id }, '1h')).rejects.toMatchObject({ status: 404, code: 'keys.not_found' });
    const second = await app.services.keys.rollKey(accountId, { name: 'n8n' }, '1h');
    expect(second.replaced.id).toBe(first.key.id);
  });

  it('revoking by name also revokes a rolled key of that name that is still in its overlap', async () => {
    const { accountId } = await app.accountWithKey(0);
    const old = await app.services.keys.createKey(accountId, 'leaked');
    const rolled = await app.services.keys.rollKey(accountId, { name: 'leaked' }, '7d');
    const revoked = await app.services.keys.revokeKey(accountId, { name: 'leaked' });
    expect(revoked.map((k) => k.id).sort()).toEqual([old.key.id, rolled.key.id].sort());
    await expectRefused(old.token);
    await expectRefused(rolled.token);
  });

  it('revoked, expired and unknown keys cannot be rolled', async () => {
    const { accountId } = await app.accountWithKey(0);
    await app.services.keys.createKey(accountId, 'gone');
    await app.services.keys.revokeKey(accountId, { name: 'gone' });
    await app.services.keys.createKey(accountId, 'lapsed', { expiresAt: new Date(now.getTime() + 1000).toISOString() });
    advance(1000);
    for (const name of ['gone', 'lapsed', 'never-was']) {
      await expect(app.services.keys.rollKey(accountId, { name }, 'now'), name).rejects.toMatchObject({ status: 404, code: 'keys.not_found' });
    }
  });

  it('a roll never fails for the key cap; the old key counts toward it until its overlap ends', async () => {
    const { accountId } = await app.accountWithKey(0);
    for (let i = 1; i < MAX_ACTIVE_KEYS_PER_ACCOUNT; i++) await app.services.keys.createKey(accountId, `k${i}`);
    await expect(app.services.keys.rollKey(accountId, { name: 'k1' }, '1h')).resolves.toBeTruthy();
    await expect(app.services.keys.createKey(accountId, 'extra')).rejects.toMatchObject({ code: 'keys.limit_reached' });
    advance(HOUR);
    await expect(app.services.keys.createKey(accountId, 'extra')).rejects.toMatchObject({ code: 'keys.limit_reached' });
    await app.services.keys.revokeKey(accountId, { name: 'k2' });
    await expect(app.services.keys.createKey(accountId, 'extra')).resolves.toBeTruthy();
  });

  it('two rolls of one key at the same time: exactly one succeeds', async () => {
    const { accountId } = await app.accountWithKey(0);
    const old = await app.services.keys.createKey(accountId, 'race');
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => app.services.keys.rollKey(accountId, { id: old.key.id }, '1h')));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const listed = (await app.services.keys.listKeys(accountId)).filter((k) => k.name === 'race');
    expect(listed.map((k) => k.state).sort()).toEqual(['active', 'replaced']);
  });
});
