import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { rawRequest } from '../support/raw-http.ts';

const CHALLENGE = 'Bearer realm="subpilot"';
const INVALID_TOKEN = 'Bearer realm="subpilot", error="invalid_token"';
const unknownKey = `ak_live_${'0'.repeat(64)}`;

async function expectUnauthorized(response: Response, challenge = INVALID_TOKEN) {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.headers.get('www-authenticate')).toBe(challenge);
  const body = await response.json();
  expect(body).toMatchObject({ status: 401, title: 'Unauthorized' });
  expect(body.detail).toEqual(expect.any(String));
  return body;
}

describe.each(engines)('authentication (spec sections 5 and 7) on %s', (engine) => {
  let app: TestApp;
  let token: string;
  let poorToken: string;

  beforeAll(async () => {
    app = await startTestApp(engine);
    ({ token } = await app.accountWithKey(100));
    ({ token: poorToken } = await app.accountWithKey(0));
  });
  afterAll(() => app.close());

  const balanceWith = (authorization?: string) =>
    app.api('GET', '/api/v1/balance', { headers: authorization === undefined ? {} : { authorization } });

  it('5.1: a valid key in "Authorization: Bearer <key>" is accepted', async () => {
    const response = await balanceWith(`Bearer ${token}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ balance: 100, owed: 0 });
  });

  it('7: a missing header gets 401 with a Bearer challenge and no invalid_token error', async () => {
    const body = await expectUnauthorized(await balanceWith(), CHALLENGE);
    expect(body.detail).toContain('Authorization: Bearer');
  });

  it.each([
    ['the Basic scheme', () => `Basic ${Buffer.from(`u:${token}`).toString('base64')}`],
    ['two spaces after Bearer (5.6)', () => `Bearer  ${token}`],
    ['a tab instead of the space (5.6)', () => `Bearer\t${token}`],
    ['trailing garbage', () => `Bearer ${token} extra`],
    ['a 71-character key', () => `Bearer ${token.slice(0, 71)}`],
    ['a 73-character key', () => `Bearer ${token}0`],
    ['uppercase hex', () => `Bearer ak_live_${token.slice(8).toUpperCase()}`],
    ['another prefix', () => `Bearer ak_test_${token.slice(8)}`],
    ['no scheme', () => token],
  ])('7: a malformed header (%s) gets 401', async (_label, header) => {
    await expectUnauthorized(await balanceWith(header()));
  });

  it('5.1: the scheme name is case-insensitive (RFC 9110), so "bearer" is accepted', async () => {
    expect((await balanceWith(`bearer ${token}`)).status).toBe(200);
    expect((await balanceWith(`BEARER ${token}`)).status).toBe(200);
  });

  it('7: an unknown key of the right shape gets 401', async () => {
    const body = await expectUnauthorized(await balanceWith(`Bearer ${unknownKey}`));
    expect(body.code).toBe('auth.invalid_key');
  });

  it('5.6: a line break in the header gets 401 problem+json, not a bare 400 (raw socket)', async () => {
    const response = await rawRequest(
      app.url,
      `GET /api/v1/balance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\rX\r\n\r\n`,
    );
    expect(response.status).toBe(401);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.headers['www-authenticate']).toContain('Bearer realm="subpilot"');
    expect(JSON.parse(response.body)).toMatchObject({ status: 401, title: 'Unauthorized' });
  });

  it('5.6: a control character in the header gets 401 (raw socket)', async () => {
    const response = await rawRequest(app.url, `GET /api/v1/balance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer\x01${token}\r\n\r\n`);
    expect(response.status).toBe(401);
  });

  it('5.6: two Authorization headers get 401 even when both are valid (raw socket)', async () => {
    const response = await rawRequest(
      app.url,
      `GET /api/v1/balance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    );
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body).detail).toContain('exactly one Authorization header');
  });

  it.each(['api_key', 'key', 'token', 'access_token'])(
    '5.3: a key in the URL (?%s=) is refused with 401 even alongside a valid header',
    async (param) => {
      const response = await app.api('GET', `/api/v1/balance?${param}=${token}`, { token });
      const body = await expectUnauthorized(response);
      expect(body.detail).toContain('header');
      expect(JSON.stringify(body)).not.toContain(token);
    },
  );

  /** Every character as %XX: what a client that encodes everything, or a paste through an encoder, sends. */
  const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');

  it.each([
    ['under a name no list holds (?auth=)', (key: string) => `auth=${key}`],
    ['under ?bearer=', (key: string) => `bearer=${key}`],
    ['under a one-letter name (?x=)', (key: string) => `x=${key}`],
    ['under an array name (?api_key[]=)', (key: string) => `api_key[]=${key}`],
    ['as the second value of a repeated name', (key: string) => `a=1&a=${key}`],
    ['inside a longer value (?q=Bearer <key>)', (key: string) => `q=Bearer%20${key}`],
    ['with every character percent-encoded', (key: string) => `x=${encodeAll(key)}`],
    ['percent-encoded after a bad escape', (key: string) => `x=%zz${encodeAll(key)}`],
    ['in capitals', (key: string) => `x=${key.toUpperCase()}`],
    ['as a name without a value', (key: string) => key],
    ['as a name with a value', (key: string) => `${key}=1`],
    ['as a percent-encoded name', (key: string) => `${encodeAll(key)}=1`],
  ])('5.3: a key in the query string %s is refused with 401 auth.key_in_url even beside a valid header', async (_label, query) => {
    const body = await expectUnauthorized(await app.api('GET', `/api/v1/balance?${query(token)}`, { token }));
    expect(body.code).toBe('auth.key_in_url');
    expect(body.detail).toContain('Authorization: Bearer');
    expect(JSON.stringify(body)).not.toContain(token.slice(8));
  });

  it('5.3: a key beside a legitimate ?key=<prefix> on /usage/daily is refused all the same', async () => {
    const prefix = token.slice(0, 16);
    const body = await expectUnauthorized(await app.api('GET', `/api/v1/usage/daily?key=${prefix}&note=${token}`, { token }));
    expect(body.code).toBe('auth.key_in_url');
  });

  it('5.3: a display prefix under any name is no secret, so it passes', async () => {
    expect((await app.api('GET', `/api/v1/balance?see=${token.slice(0, 16)}`, { token })).status).toBe(200);
  });

  it('5.3: ?key= naming a key by its display prefix is no secret and passes; anything longer is refused as a key in the URL', async () => {
    const prefix = token.slice(0, 16);
    expect((await app.api('GET', `/api/v1/usage/daily?key=${prefix}`, { token })).status).toBe(200);
    await expectUnauthorized(await app.api('GET', `/api/v1/usage/daily?key=${token.slice(0, 17)}`, { token }));
    await expectUnauthorized(await app.api('GET', `/api/v1/usage/daily?key=${prefix}&key=${prefix}`, { token }));
  });

  it('7: the 401 body never echoes the presented token', async () => {
    const response = await balanceWith(`Bearer ${token} extra`);
    expect(await response.text()).not.toContain(token.slice(8));
  });

  it('5.4: the key is checked before the body, so a bad key with a bad body is 401, not 400/415/413', async () => {
    const headers = { authorization: `Bearer ${unknownKey}` };
    await expectUnauthorized(await app.api('POST', '/api/v1/scrape', { headers, body: '{not json' }));
    await expectUnauthorized(
      await app.api('POST', '/api/v1/scrape', { headers: { ...headers, 'content-type': 'text/plain' }, body: 'x' }),
    );
    await expectUnauthorized(await app.api('POST', '/api/v1/scrape', { headers, body: 'x'.repeat(70 * 1024) }));
  });

  it('5.4 and 5.5: a 402 comes only after a valid key; an invalid key with no credits is 401', async () => {
    const body = { subreddits: ['r/typescript'], keywords: ['node'] };
    expect((await app.api('POST', '/api/v1/scrape', { token: poorToken, body })).status).toBe(402);
    await expectUnauthorized(await app.api('POST', '/api/v1/scrape', { token: unknownKey, body }));
  });

  it('the dashboard has no say here: a session cookie without a key gets 401 (5.2)', async () => {
    await expectUnauthorized(
      await app.api('GET', '/api/v1/balance', { headers: { cookie: 'session=anything' } }),
      CHALLENGE,
    );
  });

  it('2 and 3: a revoked key gets 401 on the very next request', async () => {
    const { accountId, token: doomed } = await app.accountWithKey(5);
    expect((await app.api('GET', '/api/v1/balance', { token: doomed })).status).toBe(200);
    const keys = await app.services.keys.listKeys(accountId);
    await app.services.keys.revokeKey(accountId, { id: keys[0]!.id });
    const body = await expectUnauthorized(await app.api('GET', '/api/v1/balance', { token: doomed }));
    expect(body.code).toBe('auth.invalid_key');
  });
});
