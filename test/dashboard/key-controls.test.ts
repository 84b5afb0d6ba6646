import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfIn, DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';

const TOKEN_PATTERN = /ak_live_[0-9a-f]{64}/g;
/** A day ten days from now, as a date input sends it. */
const inTenDays = () => new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
/** The instant a key given the date `day` stops working: 00:00 UTC the next day. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe.each(engines)('dashboard key controls (scopes, limit, expiry, spend, chart, roll) on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.posts.push({ id: 'kc1', subreddit: 'n8n', title: 'Reddit automation', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  async function signedIn(credits = 0) {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail('controls');
    await browser.signUp(email);
    const accountId = (await app.services.accounts.requireByEmail(email)).id;
    if (credits > 0) await app.services.credits.grant(accountId, credits, 'welcome');
    return { browser, accountId };
  }

  /** Posts the create form as a browser does: the hidden empty `scopes`, then one `scopes` per ticked box. */
  async function createKey(browser: DashboardClient, fields: { name: string; scopes?: string[]; monthly_limit?: string; expires?: string }) {
    const csrf = csrfIn((await browser.get('/dashboard/keys')).body);
    const form = new URLSearchParams({ csrf, name: fields.name, monthly_limit: fields.monthly_limit ?? '', expires: fields.expires ?? '' });
    for (const scope of ['', ...(fields.scopes ?? ['read', 'scrape', 'monitors', 'generate', 'publish', 'billing'])]) form.append('scopes', scope);
    const response = await fetch(`${app.url}/dashboard/keys`, {
      method: 'POST',
      headers: { cookie: browser.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const body = await response.text();
    return { status: response.status, body, token: body.match(TOKEN_PATTERN)?.[0] };
  }

  const scrape = (token: string) => app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/n8n'], keywords: ['reddit'] } });
  const rowOf = (list: string, name: string) => new RegExp(`<tr[^>]*>\\s*<td class="key-name" data-label="Name and key"><a href="/dashboard/keys/[^"]+">${name}</a>[\\s\\S]*?</tr>`).exec(list)![0];
  const roll = async (browser: DashboardClient, keyId: string, overlap: string) =>
    browser.submit(`/dashboard/keys/${keyId}`, `/dashboard/keys/${keyId}/roll`, { overlap });

  it('a key created with two scopes, a limit and an expiry keeps them, and the list shows each in its cell', async () => {
    const { browser, accountId } = await signedIn();
    const expires = inTenDays();
    const created = await createKey(browser, { name: 'zapier', scopes: ['read', 'scrape'], monthly_limit: '50', expires });
    expect(created.status).toBe(201);
    expect(created.token).toHaveLength(72);
    const [key] = await app.services.keys.listKeys(accountId);
    expect(key).toMatchObject({ scopes: 'read scrape', monthly_credit_limit: 50, expires_at: `${dayAfter(expires)}T00:00:00.000Z` });

    const row = rowOf((await browser.get('/dashboard/keys')).body, 'zapier');
    expect(row).toContain(`href="/dashboard/keys/${key!.id}"`);
    expect(row).toContain('<td data-label="Scopes">read, scrape</td>');
    expect(row).toContain('<td class="num" data-label="Spent this month">0 / 50</td>');
    expect(row).toContain(`${dayAfter(expires)} 00:00 UTC`);
    expect(row).toContain('badge-active');
  });

  it('a key made with every scope ticked and nothing else reads "All", its spend without a limit, and expiry "—"', async () => {
    const { browser } = await signedIn();
    expect((await createKey(browser, { name: 'make' })).status).toBe(201);
    const row = rowOf((await browser.get('/dashboard/keys')).body, 'make');
    expect(row).toContain('<td data-label="Scopes">All</td>');
    expect(row).toContain('<td class="num" data-label="Spent this month">0</td>');
    expect(row).toContain('—');
  });

  it('no scope ticked, a fractional limit, a past day or a day that does not exist is refused beside the form, as typed', async () => {
    const { browser, accountId } = await signedIn();
    const refusals = [
      await createKey(browser, { name: 'none', scopes: [] }),
      await createKey(browser, { name: 'half', monthly_limit: '1.5' }),
      await createKey(browser, { name: 'past', expires: '2020-01-01' }),
      await createKey(browser, { name: 'feb', expires: '2031-02-30' }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([422, 422, 422, 422]);
    const messages = refusals.map((r) => /<p class="alert alert-error" role="alert">([^<]*)<\/p>\s*<form method="post" action="\/dashboard\/keys"/.exec(r.body)?.[1]);
    expect(messages).toEqual([
      expect.stringMatching(/at least one scope/),
      expect.stringMatching(/whole number/),
      expect.stringMatching(/2020-01-02T00:00:00.000Z is not in the future/),
      expect.stringMatching(/2031-02-30/),
    ]);
    for (const refusal of refusals) expect(refusal.token).toBeUndefined();
    expect(refusals[1]!.body).toContain('value="1.5"');
    expect(refusals[2]!.body).toContain('value="2020-01-01"');
    expect(refusals[0]!.body).not.toMatch(/name="scopes" value="read" checked/);
    expect(await app.services.keys.listKeys(accountId)).toEqual([]);
  });

  it('the key page shows spend against the limit and a 30-bar chart of daily spend that includes today', async () => {
    const { browser, accountId } = await signedIn(20);
    const { token } = await createKey(browser, { name: 'n8n', scopes: ['scrape'], monthly_limit: '50' });
    expect((await scrape(token!)).status).toBe(200);
    const [key] = await app.services.keys.listKeys(accountId);

    expect(rowOf((await browser.get('/dashboard/keys')).body, 'n8n')).toContain('<td class="num" data-label="Spent this month">1 / 50</td>');
    const { status, body } = await browser.get(`/dashboard/keys/${key!.id}`);
    expect(status).toBe(200);
    expect(body).toContain('1 of 50 credits');
    const svg = /<svg[\s\S]*?<\/svg>/.exec(body)![0];
    expect(svg.match(/<rect /g)).toHaveLength(30);
    expect(svg).toMatch(/role="img" aria-labelledby="[^"]+"/);
    expect(svg).toContain(`${new Date().toISOString().slice(0, 10)}: 1 credit<`);
    expect(body).toContain('1 credit in the last 30 days.');
    expect(body).not.toContain(token!.slice(8));
    expect(await ledgerSum(app.database.db, accountId)).toBe(19);
  });

  it('rolling with a 24-hour overlap shows the new token once; both keys work and the old one reads "expires in 24 h"', async () => {
    const { browser, accountId } = await signedIn(10);
    const { token: oldToken } = await createKey(browser, { name: 'pipeline', scopes: ['read', 'scrape'], monthly_limit: '30' });
    const [old] = await app.services.keys.listKeys(accountId);

    const rolled = await roll(browser, old!.id, '24h');
    expect(rolled.status).toBe(201);
    const tokens = rolled.body.match(TOKEN_PATTERN)!;
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).not.toBe(oldToken);
    expect(rolled.body).toContain('it will not be shown again');
    expect(rolled.body).toMatch(new RegExp(`The old key <code>${old!.prefix}…</code> keeps working until <time`));

    const keys = await app.services.keys.listKeys(accountId);
    const fresh = keys.find((k) => k.id !== old!.id)!;
    expect(fresh).toMatchObject({ name: 'pipeline', scopes: 'read scrape', monthly_credit_limit: 30 });
    for (const token of [oldToken!, tokens[0]!]) expect((await app.api('GET', '/api/v1/balance', { token })).status).toBe(200);

    const list = (await browser.get('/dashboard/keys')).body;
    expect(list).toContain('expires in 24 h');
    for (const page of [list, (await browser.get(`/dashboard/keys/${fresh.id}`)).body, (await browser.get(`/dashboard/keys/${old!.id}`)).body]) {
      expect(page).not.toContain(tokens[0]!.slice(8));
    }
    // A replaced key cannot be rolled again: its page offers no roll form, and a forged roll is a 404.
    expect((await browser.get(`/dashboard/keys/${old!.id}`)).body).not.toContain('/roll"');
    const csrf = csrfIn((await browser.get('/dashboard/keys')).body);
    expect((await browser.post(`/dashboard/keys/${old!.id}/roll`, { csrf, overlap: 'now' })).status).toBe(404);
  });

  it('rolling with overlap "now" stops the old key at once and the list shows it replaced', async () => {
    const { browser, accountId } = await signedIn();
    const { token: oldToken } = await createKey(browser, { name: 'cron' });
    const [old] = await app.services.keys.listKeys(accountId);
    const rolled = await roll(browser, old!.id, 'now');
    expect(rolled.status).toBe(201);
    expect(rolled.body).toContain('has stopped working');
    expect((await app.api('GET', '/api/v1/balance', { token: oldToken })).status).toBe(401);
    expect((await browser.get('/dashboard/keys')).body).toContain('badge-replaced');
  });

  it("another account's key is a 404 on its page and its roll, and a roll without the CSRF token is a 403", async () => {
    const { browser } = await signedIn();
    const other = await app.accountWithKey(0);
    const [key] = await app.services.keys.listKeys(other.accountId);
    expect((await browser.get(`/dashboard/keys/${key!.id}`)).status).toBe(404);
    const csrf = csrfIn((await browser.get('/dashboard/keys')).body);
    expect((await browser.post(`/dashboard/keys/${key!.id}/roll`, { csrf, overlap: 'now' })).status).toBe(404);

    const own = await signedIn();
    const { key: mine } = await app.services.keys.createKey(own.accountId, 'mine');
    expect((await own.browser.post(`/dashboard/keys/${mine.id}/roll`, { overlap: 'now' })).status).toBe(403);
    expect(await app.services.keys.listKeys(other.accountId)).toHaveLength(1);
    expect(await app.services.keys.listKeys(own.accountId)).toMatchObject([{ id: mine.id, replaced_by: null }]);
  });
});
