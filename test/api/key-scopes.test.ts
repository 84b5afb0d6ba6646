import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/modules/keys/keys.scopes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';

const challenge = (scope: Scope) => `Bearer realm="subpilot", error="insufficient_scope", scope="${scope}"`;
const scrapeBody = { subreddits: ['r/typescript'], keywords: ['node'] };
const generateBody = { type: 'post', subreddit: 'r/node', instructions: 'x' };
const publishBody = { type: 'comment', parent: 't3_abc', body: 'x' };

/** One call of each endpoint family, and the scope it needs. */
const FAMILIES: { call: string; method: string; path: string; body?: unknown; needs: Scope; holds: Scope[] }[] = [
  { call: 'GET /balance', method: 'GET', path: '/api/v1/balance', needs: 'read', holds: ['scrape', 'generate', 'publish'] },
  { call: 'GET /usage', method: 'GET', path: '/api/v1/usage', needs: 'read', holds: ['publish'] },
  { call: 'GET /scrapes', method: 'GET', path: '/api/v1/scrapes', needs: 'read', holds: ['scrape'] },
  { call: 'GET /scrapes/:id', method: 'GET', path: '/api/v1/scrapes/scr_x', needs: 'read', holds: ['scrape'] },
  { call: 'GET /generations/:id', method: 'GET', path: '/api/v1/generations/gen_x', needs: 'read', holds: ['generate'] },
  { call: 'GET /publications/:id', method: 'GET', path: '/api/v1/publications/pub_x', needs: 'read', holds: ['publish'] },
  { call: 'POST /scrape', method: 'POST', path: '/api/v1/scrape', body: scrapeBody, needs: 'scrape', holds: ['read', 'generate'] },
  { call: 'POST /generate', method: 'POST', path: '/api/v1/generate', body: generateBody, needs: 'generate', holds: ['read', 'scrape', 'publish'] },
  { call: 'POST /publish', method: 'POST', path: '/api/v1/publish', body: publishBody, needs: 'publish', holds: ['read', 'scrape', 'monitors', 'generate'] },
];

describe.each(engines)('key scopes on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.posts.push({ id: 'k1', subreddit: 'typescript', title: 'Node tips', selftext: '', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  async function keyWith(scopes: Scope[], balance = 100) {
    const { accountId } = await app.accountWithKey(balance);
    const { token } = await app.services.keys.createKey(accountId, 'scoped', { scopes });
    return { accountId, token };
  }

  it.each(FAMILIES)('$call refuses a key without the "$needs" scope with 403 and an RFC 6750 challenge naming it', async (family) => {
    const { accountId, token } = await keyWith(family.holds);
    const response = await app.api(family.method, family.path, { token, body: family.body });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('www-authenticate')).toBe(challenge(family.needs));
    const problem = await response.json();
    expect(problem).toMatchObject({ status: 403, code: 'auth.insufficient_scope', required_scope: family.needs, key_scopes: family.holds });
    expect(problem.detail).toContain(`"${family.needs}" scope`);
    expect(problem.detail).toContain(family.holds.join(', '));
    expect(await ledgerSum(app.database.db, accountId)).toBe(100);
  });

  it('a revoked key with the wrong scope gets 401, not 403: the key is checked first', async () => {
    const { accountId, token } = await keyWith(['read']);
    await app.services.keys.revokeKey(accountId, { name: 'scoped' });
    const response = await app.api('POST', '/api/v1/scrape', { token, body: scrapeBody });
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe('auth.invalid_key');
  });

  it('a valid key with the wrong scope at zero balance gets 403, not 402: the scope is checked before credits', async () => {
    const { token } = await keyWith(['read'], 0);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: scrapeBody });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(challenge('scrape'));
  });

  it('a key with the wrong scope gets 403 however wrong its body is: the body is never read', async () => {
    const { token } = await keyWith(['read']);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: '{broken json' });
    expect(response.status).toBe(403);
  });

  it('a read-only key still reads the balance and the usage', async () => {
    const { token } = await keyWith(['read'], 42);
    const balance = await app.api('GET', '/api/v1/balance', { token });
    expect(balance.status).toBe(200);
    expect(await balance.json()).toEqual({ balance: 42, owed: 0 });
    expect((await app.api('GET', '/api/v1/usage', { token })).status).toBe(200);
  });

  it('a key with the scope passes the check: a scrape-only key scrapes and is charged', async () => {
    const { accountId, token } = await keyWith(['scrape'], 10);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: scrapeBody });
    expect(response.status).toBe(200);
    expect((await response.json()).credits).toEqual({ charged: 1, balance: 9 });
    expect(await ledgerSum(app.database.db, accountId)).toBe(9);
  });

  it('a key made without scopes, as every existing key was, passes the scope check of every endpoint', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    const [key] = await app.services.keys.listKeys(accountId);
    expect(key).toMatchObject({ scopes: null, monthly_credit_limit: null, expires_at: null, replaced_by: null, state: 'active' });
    for (const family of FAMILIES) {
      // A broken body or an unknown id: whatever answers, it is past the scope check.
      const response = await app.api(family.method, family.path, { token, body: family.body === undefined ? undefined : '{broken' });
      expect(response.status, family.call).not.toBe(403);
      expect(response.status, family.call).toBeLessThan(500);
    }
  });

  it('choosing every scope stores none, so the key also gets the scopes added later', async () => {
    const { accountId } = await app.accountWithKey(0);
    const { key } = await app.services.keys.createKey(accountId, 'all', { scopes: ['publish', 'read', 'scrape', 'monitors', 'generate', 'billing'] });
    expect(key.scopes).toBeNull();
  });

  it.each([
    ['no scope', [], /at least one scope/],
    ['a name that is not a scope', ['read', 'admin'], /"admin" is not a scope/],
  ])('creating a key with %s is refused with 422 keys.invalid_scopes', async (_label, scopes, message) => {
    const { accountId } = await app.accountWithKey(0);
    const refusal = app.services.keys.createKey(accountId, 'bad', { scopes: scopes as Scope[] });
    await expect(refusal).rejects.toMatchObject({ status: 422, code: 'keys.invalid_scopes', message: expect.stringMatching(message) });
  });
});
