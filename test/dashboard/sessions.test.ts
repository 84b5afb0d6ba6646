import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfIn, DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';

const PASSWORD = 'correct horse battery';
const sessionCookieOf = (setCookies: string[], name = 'subpilot_session') => setCookies.find((c) => c.startsWith(`${name}=`));

describe.each(engines)('dashboard sessions and log-in on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(() => app.close());
  const client = () => new DashboardClient(app.url);

  it('sign-up starts a session whose cookie is HttpOnly, SameSite=Lax, Path=/ and not Secure over http', async () => {
    const browser = client();
    const response = await browser.signUp(uniqueEmail());
    expect(response.status).toBe(303);
    expect(response.location).toBe('/dashboard/keys?welcome=1');
    const cookie = sessionCookieOf(response.setCookies)!;
    expect(cookie).toMatch(/^subpilot_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure');
    expect((await browser.get('/dashboard/keys')).status).toBe(200);
  });

  it('the database keeps the SHA-256 of the session id, never the id', async () => {
    const browser = client();
    await browser.signUp(uniqueEmail());
    const id = browser.cookies.get('subpilot_session')!;
    const rows = await app.database.db.selectFrom('sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(id);
    const { createHash } = await import('node:crypto');
    expect(rows.map((r) => r.id_hash)).toContain(createHash('sha256').update(id).digest('hex'));
  });

  it('log-in rotates the session: a new id, and the old one no longer works', async () => {
    const email = uniqueEmail();
    const browser = client();
    await browser.signUp(email, PASSWORD);
    const before = browser.cookies.get('subpilot_session')!;
    // Take the log-in form as an anonymous visitor, then post it while still holding the old session.
    browser.cookies.delete('subpilot_session');
    const form = await browser.get('/dashboard/login');
    browser.cookies.set('subpilot_session', before);
    const response = await browser.post('/dashboard/login', { csrf: csrfIn(form.body), email, password: PASSWORD });
    expect(response.status).toBe(303);
    const after = browser.cookies.get('subpilot_session')!;
    expect(after).not.toBe(before);
    expect((await browser.get('/dashboard/keys')).status).toBe(200);
    const old = client();
    old.cookies.set('subpilot_session', before);
    expect((await old.get('/dashboard/keys')).location).toBe('/dashboard/login');
  });

  it('an operator-made account (CLI, argon2id) can log in; one without a password cannot', async () => {
    const withPassword = await app.services.accounts.createAccount(uniqueEmail('cli'), PASSWORD);
    expect((await client().logIn(withPassword.email, PASSWORD)).location).toBe('/dashboard/keys');
    const without = await app.services.accounts.createAccount(uniqueEmail('nopass'));
    const refused = await client().logIn(without.email, 'anything at all');
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Email or password is incorrect');
  });

  it('a wrong password and an unknown email get the same generic message', async () => {
    const email = uniqueEmail();
    await client().signUp(email, PASSWORD);
    const wrong = await client().logIn(email, 'wrong password!');
    const unknown = await client().logIn(uniqueEmail('nobody'), 'wrong password!');
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(400);
      expect(response.body).toContain('Email or password is incorrect');
      expect(sessionCookieOf(response.setCookies)).toBeUndefined();
    }
  });

  it('log-out deletes the session row and clears the cookie', async () => {
    const browser = client();
    await browser.signUp(uniqueEmail());
    const id = browser.cookies.get('subpilot_session')!;
    const response = await browser.submit('/dashboard/keys', '/dashboard/logout', {});
    expect(response.status).toBe(303);
    expect(response.location).toBe('/dashboard/login');
    expect(sessionCookieOf(response.setCookies)).toMatch(/^subpilot_session=;/);
    const replay = client();
    replay.cookies.set('subpilot_session', id);
    expect((await replay.get('/dashboard/keys')).location).toBe('/dashboard/login');
  });

  it('the dashboard cookie never authenticates an /api/v1/ call (spec 5.2)', async () => {
    const browser = client();
    await browser.signUp(uniqueEmail());
    const response = await app.api('GET', '/api/v1/balance', { headers: { cookie: browser.cookieHeader() } });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('a weak password is refused at sign-up with a clear message', async () => {
    const response = await client().signUp(uniqueEmail(), 'short');
    expect(response.status).toBe(422);
    expect(response.body).toContain('at least 10 characters');
  });
});

describe.each(engines)('dashboard configuration on %s', (engine) => {
  it('ALLOW_SIGNUP=false refuses the sign-up page and its POST, and creates nothing', async () => {
    const app = await startTestApp(engine, { env: { ALLOW_SIGNUP: 'false' } });
    try {
      const browser = new DashboardClient(app.url);
      expect((await browser.get('/dashboard/signup')).status).toBe(403);
      const email = uniqueEmail('closed');
      const response = await browser.submit('/dashboard/login', '/dashboard/signup', { email, password: PASSWORD });
      expect(response.status).toBe(403);
      expect(response.body).toContain('Sign-up is switched off');
      await expect(app.services.accounts.requireByEmail(email)).rejects.toMatchObject({ code: 'accounts.not_found' });
      expect((await browser.get('/dashboard/login')).body).not.toContain('href="/dashboard/signup"');
    } finally {
      await app.close();
    }
  });

  it('with an https PUBLIC_URL the session cookie is __Host-subpilot_session: Secure, HttpOnly, SameSite=Lax, Path=/ and no Domain, and log-out clears it under that name', async () => {
    const app = await startTestApp(engine, { env: { PUBLIC_URL: 'https://dash.example.com' } });
    try {
      const browser = new DashboardClient(app.url);
      const response = await browser.signUp(uniqueEmail());
      const cookie = sessionCookieOf(response.setCookies, '__Host-subpilot_session')!;
      expect(cookie).toMatch(/^__Host-subpilot_session=[A-Za-z0-9_-]{43};/);
      expect(cookie).toContain('Secure');
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      expect(cookie).toContain('Path=/;');
      expect(cookie).not.toMatch(/domain=/i);
      expect(sessionCookieOf(response.setCookies)).toBeUndefined();
      expect((await browser.get('/dashboard/keys')).status).toBe(200);
      const out = await browser.submit('/dashboard/keys', '/dashboard/logout', {});
      expect(sessionCookieOf(out.setCookies, '__Host-subpilot_session')).toMatch(/^__Host-subpilot_session=;/);
      expect((await browser.get('/dashboard/keys')).location).toBe('/dashboard/login');
    } finally {
      await app.close();
    }
  });

  it("with an https PUBLIC_URL a subpilot_session cookie planted for the parent domain with the attacker's valid session id signs no one in: the dashboard treats the visitor as signed out", async () => {
    const app = await startTestApp(engine, { env: { PUBLIC_URL: 'https://dash.example.com' } });
    try {
      const attacker = uniqueEmail('attacker');
      await app.services.accounts.createAccount(attacker, PASSWORD);
      // What evil.example.com can do: log in to its own account and set subpilot_session to that id for example.com.
      const { id } = await app.services.sessions.logIn({ email: attacker, password: PASSWORD, ip: '127.0.0.1' });
      const victim = new DashboardClient(app.url);
      victim.cookies.set('subpilot_session', id);
      expect((await victim.get('/dashboard/keys')).location).toBe('/dashboard/login');
      const login = await victim.get('/dashboard/login');
      expect(login.status).toBe(200);
      expect(login.body).not.toContain(attacker);

      const visitor = uniqueEmail('visitor');
      await app.services.accounts.createAccount(visitor, PASSWORD);
      expect((await victim.logIn(visitor, PASSWORD)).location).toBe('/dashboard/keys');
      const keys = await victim.get('/dashboard/keys');
      expect(keys.body).toContain(visitor);
      expect(keys.body).not.toContain(attacker);
    } finally {
      await app.close();
    }
  });

  it('with an https PUBLIC_URL the form cookie is __Host-subpilot_form: Secure, Path=/ and no Domain, so no sibling subdomain can set it', async () => {
    const app = await startTestApp(engine, { env: { PUBLIC_URL: 'https://dash.example.com' } });
    try {
      const form = await new DashboardClient(app.url).get('/dashboard/login');
      const cookie = form.setCookies.find((c) => c.startsWith('__Host-subpilot_form='))!;
      expect(cookie).toMatch(/^__Host-subpilot_form=[A-Za-z0-9_-]{43};/);
      expect(cookie).toContain('Secure');
      expect(cookie).toContain('Path=/;');
      expect(cookie).not.toMatch(/domain=/i);
    } finally {
      await app.close();
    }
  });

  it('with an https PUBLIC_URL a form cookie planted for the parent domain logs no one in, even from a browser that sends no Sec-Fetch-Site', async () => {
    const app = await startTestApp(engine, { env: { PUBLIC_URL: 'https://dash.example.com' } });
    try {
      const email = uniqueEmail('parent');
      await app.services.accounts.createAccount(email, PASSWORD);
      // What evil.example.com can do: set subpilot_form for example.com, and post the same value.
      const victim = new DashboardClient(app.url);
      victim.cookies.set('subpilot_form', 'a'.repeat(43));
      expect((await victim.post('/dashboard/login', { csrf: 'a'.repeat(43), email, password: PASSWORD })).status).toBe(403);
      expect(victim.cookies.has('subpilot_session')).toBe(false);
      expect((await victim.logIn(email, PASSWORD)).location).toBe('/dashboard/keys');
    } finally {
      await app.close();
    }
  });

  it('a session past SESSION_TTL_HOURS redirects to log-in (pinned clock)', async () => {
    let now = new Date('2030-01-01T00:00:00.000Z');
    const app = await startTestApp(engine, { env: { SESSION_TTL_HOURS: '2' }, overrides: { clock: () => now } });
    try {
      const browser = new DashboardClient(app.url);
      const response = await browser.signUp(uniqueEmail());
      expect(sessionCookieOf(response.setCookies)).toContain('Max-Age=7200');
      now = new Date('2030-01-01T01:59:59.000Z');
      expect((await browser.get('/dashboard/keys')).status).toBe(200);
      now = new Date('2030-01-01T02:00:00.000Z');
      const expired = await browser.get('/dashboard/keys');
      expect(expired.status).toBe(303);
      expect(expired.location).toBe('/dashboard/login');
      expect(await app.database.db.selectFrom('sessions').selectAll().execute()).toHaveLength(0);
    } finally {
      await app.close();
    }
  });
});
