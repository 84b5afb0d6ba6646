import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

const unknownKey = `ak_live_${'0'.repeat(64)}`;
const LIMIT = 3;

/** GET from a chosen loopback address (127.0.0.0/8 is all local on Linux), so two "clients" differ. */
function getFrom(localAddress: string, url: string, token: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = request(url, { localAddress, headers: { authorization: `Bearer ${token}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe.each(engines)('throttling failed key attempts per client address on %s', (engine) => {
  let app: TestApp;
  let now = Date.parse('2026-11-23T10:00:05Z');
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT) }, overrides: { clock: () => new Date(now) } });
  });
  afterAll(() => app.close());

  it(`a first bad key is a 401; past ${LIMIT} failed attempts in a minute the address gets 429 auth.too_many_failures with Retry-After`, async () => {
    const balance = `${app.url}/api/v1/balance`;
    for (let i = 0; i < LIMIT; i++) {
      const response = await getFrom('127.0.0.2', balance, unknownKey);
      expect(response.status).toBe(401);
    }
    const throttled = await getFrom('127.0.0.2', balance, unknownKey);
    expect(throttled.status).toBe(429);
    expect(JSON.parse(throttled.body).code).toBe('auth.too_many_failures');
    expect(Number(throttled.headers['retry-after'])).toBe(55);
  });

  it('while one address is throttled, a valid key from another address is still answered 200', async () => {
    const { token } = await app.accountWithKey(1);
    const other = await getFrom('127.0.0.3', `${app.url}/api/v1/balance`, token);
    expect(other.status).toBe(200);
  });

  it('from the throttled address, every valid key gets through, one never used here included', async () => {
    const known = await app.accountWithKey(1);
    expect((await getFrom('127.0.0.3', `${app.url}/api/v1/balance`, known.token)).status).toBe(200);
    // Someone else's valid key behind the same address (a NAT, an automation platform) keeps working,
    expect((await getFrom('127.0.0.2', `${app.url}/api/v1/balance`, known.token)).status).toBe(200);
    // and so does one this process has never seen: validity is decided before the throttle is asked.
    const unseen = await app.accountWithKey(1);
    expect((await getFrom('127.0.0.2', `${app.url}/api/v1/balance`, unseen.token)).status).toBe(200);
  });

  it('a throttled address cannot tell which keys existed: revoked, expired, rolled over and never issued get the same 429', async () => {
    const revoked = await app.accountWithKey(1);
    const expired = await app.accountWithKey(1);
    const rolled = await app.accountWithKey(1);
    for (const { token } of [revoked, expired, rolled]) expect((await getFrom('127.0.0.3', `${app.url}/api/v1/balance`, token)).status).toBe(200);
    await app.services.keys.revokeKey(revoked.accountId, { prefix: revoked.token.slice(0, 16) });
    await app.database.db.updateTable('api_keys').set({ expires_at: new Date(now - 1000).toISOString() }).where('prefix', '=', expired.token.slice(0, 16)).execute();
    await app.services.keys.rollKey(rolled.accountId, { prefix: rolled.token.slice(0, 16) }, 'now');
    const answers = await Promise.all(
      [unknownKey, revoked.token, expired.token, rolled.token].map(async (token) => {
        const { status, headers, body } = await getFrom('127.0.0.2', `${app.url}/api/v1/balance`, token);
        return { status, retryAfter: headers['retry-after'], body };
      }),
    );
    expect(answers[0]!.status).toBe(429);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    // From an address in good standing each is the 401 it is.
    for (const token of [revoked.token, expired.token, rolled.token]) expect((await getFrom('127.0.0.3', `${app.url}/api/v1/balance`, token)).status).toBe(401);
  });

  it('the next minute the address starts afresh: a bad key is a 401 again and a good key a 200', async () => {
    const { token } = await app.accountWithKey(1);
    now += 60_000;
    expect((await getFrom('127.0.0.2', `${app.url}/api/v1/balance`, unknownKey)).status).toBe(401);
    expect((await getFrom('127.0.0.2', `${app.url}/api/v1/balance`, token)).status).toBe(200);
  });
});
