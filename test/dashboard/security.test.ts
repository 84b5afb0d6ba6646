import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfIn, DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';

const PASSWORD = 'correct horse battery';

describe.each(engines)('dashboard CSRF, throttling and headers on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(() => app.close());

  async function signedIn() {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail();
    await browser.signUp(email, PASSWORD);
    const accountId = (await app.services.accounts.requireByEmail(email)).id;
    return { browser, email, accountId };
  }

  it('a forged key-creation POST without or with a wrong CSRF token is 403 and creates nothing', async () => {
    const { browser, accountId } = await signedIn();
    const without = await browser.post('/dashboard/keys', { name: 'forged' });
    const wrong = await browser.post('/dashboard/keys', { name: 'forged', csrf: 'x'.repeat(43) });
    for (const response of [without, wrong]) {
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.body).not.toContain('ak_live_');
    }
    expect(await app.services.keys.listKeys(accountId)).toEqual([]);
  });

  it("another session's CSRF token does not work either", async () => {
    const victim = await signedIn();
    const attacker = await signedIn();
    const attackerToken = csrfIn((await attacker.browser.get('/dashboard/keys')).body);
    expect((await victim.browser.post('/dashboard/keys', { name: 'x', csrf: attackerToken })).status).toBe(403);
    expect(await app.services.keys.listKeys(victim.accountId)).toEqual([]);
  });

  it('a forged revoke or log-out is 403 and changes nothing', async () => {
    const { browser, accountId } = await signedIn();
    const { key } = await app.services.keys.createKey(accountId, 'keep-me');
    expect((await browser.post(`/dashboard/keys/${key.id}/revoke`, { csrf: 'nope' })).status).toBe(403);
    expect((await browser.post('/dashboard/logout', {})).status).toBe(403);
    expect((await app.services.keys.listKeys(accountId))[0]!.revoked_at).toBeNull();
    expect((await browser.get('/dashboard/keys')).status).toBe(200);
  });

  it('a forged log-in or sign-up POST (no form cookie, or a token that does not match it) is 403', async () => {
    const email = uniqueEmail('forged');
    const bare = new DashboardClient(app.url);
    expect((await bare.post('/dashboard/signup', { email, password: PASSWORD, csrf: 'a'.repeat(43) })).status).toBe(403);
    const withCookie = new DashboardClient(app.url);
    await withCookie.get('/dashboard/signup');
    expect((await withCookie.post('/dashboard/signup', { email, password: PASSWORD, csrf: 'a'.repeat(43) })).status).toBe(403);
    expect((await withCookie.post('/dashboard/login', { email, password: PASSWORD })).status).toBe(403);
    await expect(app.services.accounts.requireByEmail(email)).rejects.toMatchObject({ code: 'accounts.not_found' });
  });

  it('a log-in or sign-up posted from another origin (a sibling subdomain or another site) with a planted form cookie and its matching token is 403 and starts nothing', async () => {
    const email = uniqueEmail('planted');
    await app.services.accounts.createAccount(email, PASSWORD);
    // The attacker's own valid pair, fetched from the server: a signature on the token would not tell it apart.
    const attacker = new DashboardClient(app.url);
    const token = csrfIn((await attacker.get('/dashboard/login')).body);
    for (const site of ['same-site', 'cross-site']) {
      const victim = new DashboardClient(app.url);
      victim.cookies.set('subpilot_form', attacker.cookies.get('subpilot_form')!);
      const fromElsewhere = { 'sec-fetch-site': site, origin: 'https://evil.example.com' };
      expect((await victim.post('/dashboard/login', { csrf: token, email, password: PASSWORD }, fromElsewhere)).status).toBe(403);
      expect(victim.cookies.has('subpilot_session')).toBe(false);
      const newEmail = uniqueEmail('planted');
      expect((await victim.post('/dashboard/signup', { csrf: token, email: newEmail, password: PASSWORD }, fromElsewhere)).status).toBe(403);
      await expect(app.services.accounts.requireByEmail(newEmail)).rejects.toMatchObject({ code: 'accounts.not_found' });
    }
  });

  it("a log-in posted from the dashboard's own page starts a session, though no-referrer makes its Origin null", async () => {
    const email = uniqueEmail('own');
    await app.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(app.url);
    const token = csrfIn((await browser.get('/dashboard/login')).body);
    const fromTheForm = { 'sec-fetch-site': 'same-origin', origin: 'null' };
    const response = await browser.post('/dashboard/login', { csrf: token, email, password: PASSWORD }, fromTheForm);
    expect(response.location).toBe('/dashboard/keys');
    expect((await browser.get('/dashboard/keys')).status).toBe(200);
  });

  it('the 6th failed log-in for one email within 15 minutes is a 429, even with the right password', async () => {
    const email = uniqueEmail('throttle');
    await app.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(app.url);
    for (let i = 0; i < 5; i++) expect((await browser.logIn(email, `wrong password ${i}`)).status).toBe(400);
    const sixth = await browser.logIn(email, PASSWORD);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe('900');
    expect(sixth.body).toContain('Too many failed log-ins');
    expect(sixth.setCookies.some((c) => c.startsWith('subpilot_session='))).toBe(false);
    const rows = await app.database.db.selectFrom('login_failures').selectAll().where('email', '=', email).execute();
    expect(rows).toHaveLength(5);
  });

  it('one IP gets a 429 after 20 failures across different emails', async () => {
    const browser = new DashboardClient(app.url);
    const victim = uniqueEmail('ipvictim');
    await app.services.accounts.createAccount(victim, PASSWORD);
    const before = await app.database.db.selectFrom('login_failures').selectAll().where('ip', '=', '127.0.0.1').execute();
    for (let i = before.length; i < 20; i++) {
      expect((await browser.logIn(uniqueEmail('spray'), 'wrong password!')).status).toBe(400);
    }
    expect((await browser.logIn(victim, PASSWORD)).status).toBe(429);
    await app.database.db.deleteFrom('login_failures').execute();
    expect((await browser.logIn(victim, PASSWORD)).status).toBe(303);
  });

  it('dashboard pages send CSP without inline script, DENY framing, no-referrer, nosniff and no-store', async () => {
    const { browser } = await signedIn();
    for (const path of ['/dashboard/keys', '/dashboard/credits', '/dashboard/scrapes', '/dashboard/login', '/dashboard/nowhere']) {
      const { headers, body } = await browser.get(path);
      const csp = headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('referrer-policy')).toBe('no-referrer');
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('cache-control')).toBe('no-store');
      expect(body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(body).not.toMatch(/\son[a-z]+=/i);
    }
  });

  it('a form-encoded body still gets 415 from the API: the form parser lives only in the dashboard', async () => {
    const { token } = await app.accountWithKey(5);
    const response = await app.api('POST', '/api/v1/scrape', {
      token,
      body: 'subreddits=r/node&keywords=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
  });
});
