import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchChromium, requireChromium } from '../support/browser.ts';
import { csrfIn, DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines, type Engine } from '../support/engines.ts';
import { selfSignedCertificate, startTlsFront, type Certificate } from '../support/tls-front.ts';

const hasChromium = requireChromium('log-in CSRF by a planted form or session cookie');
const PASSWORD = 'correct horse battery';
/** In this Chromium every name under it is 127.0.0.1: the dashboard is dash.example.test, the attacker evil.example.test. */
const PARENT = 'example.test';

/**
 * The attacker's page: it sets `cookies` (their own form or session cookie, got from the dashboard)
 * and, given a `form`, posts it at once: the log-in, with the matching token and their credentials.
 */
async function startAttacker(options: { certificate?: Certificate; cookies: string[]; form?: { action: string; fields: Record<string, string> } }) {
  const { form } = options;
  const inputs = Object.entries(form?.fields ?? {}).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`);
  const page = form
    ? `<!doctype html><form method="post" action="${form.action}">${inputs.join('')}</form><script>document.forms[0].submit()</script>`
    : '<!doctype html><title>A sibling subdomain</title>';
  const listener: RequestListener = (_request, response) => {
    response.setHeader('set-cookie', options.cookies);
    response.setHeader('content-type', 'text/html');
    response.end(page);
  };
  const server: Server = options.certificate ? createHttpsServer(options.certificate, listener) : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The attacker's own pair: the value of the form cookie the dashboard gave them and the token on their log-in page. */
async function attackerPair(app: TestApp) {
  const email = uniqueEmail('attacker');
  await app.services.accounts.createAccount(email, PASSWORD);
  const client = new DashboardClient(app.url);
  const csrf = csrfIn((await client.get('/dashboard/login')).body);
  const [value] = client.cookies.values();
  return { value: value!, fields: { csrf, email, password: PASSWORD } };
}

/** Opens the attacker's page and answers the status of the log-in it posts to the dashboard. */
async function visitAttacker(page: Page, attackerUrl: string, loginUrl: string): Promise<number> {
  const answer = page.waitForResponse((response) => response.url() === loginUrl);
  await page.goto(attackerUrl);
  return (await answer).status();
}

async function logInThroughTheForm(page: Page, dashboard: string, email: string) {
  await page.goto(`${dashboard}/dashboard/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${dashboard}/dashboard/keys`);
}

/**
 * The dashboard at https://dash.example.test behind a TLS front, as an https deployment is, and the
 * certificate an attacker's page on evil.example.test can use too.
 */
async function startHttpsDashboard(engine: Engine) {
  const certificate = selfSignedCertificate(PARENT);
  let appPort = 0;
  const front = await startTlsFront(certificate, () => appPort);
  const url = `https://dash.${PARENT}:${front.port}`;
  const app = await startTestApp(engine, { worker: false, env: { PUBLIC_URL: url } });
  appPort = Number(new URL(app.url).port);
  const close = async () => {
    await app.close();
    await front.close();
  };
  return { certificate, url, app, close };
}

const cookieNames = async (context: BrowserContext, url: string) => (await context.cookies(url)).map((cookie) => cookie.name).sort();

describe.skipIf(!hasChromium).each(engines)('log-in CSRF by a planted form or session cookie in Chromium on %s', (engine) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium([`--host-resolver-rules=MAP *.${PARENT} 127.0.0.1`]);
  });
  afterAll(() => browser?.close());

  it("over http on 127.0.0.1, another local app's planted form cookie and token (cookies ignore ports) do not log the visitor in", async () => {
    const app = await startTestApp(engine, { worker: false });
    const { value, fields } = await attackerPair(app);
    const attacker = await startAttacker({ cookies: [`subpilot_form=${value}; Path=/`], form: { action: `${app.url}/dashboard/login`, fields } });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      expect(await visitAttacker(page, `http://127.0.0.1:${attacker.port}/`, `${app.url}/dashboard/login`)).toBe(403);
      expect(await cookieNames(context, app.url)).toEqual(['subpilot_form']);

      const visitor = uniqueEmail('visitor');
      await app.services.accounts.createAccount(visitor, PASSWORD);
      await logInThroughTheForm(page, app.url, visitor);
      expect(await page.content()).toContain(visitor);
    } finally {
      await context.close();
      await attacker.close();
      await app.close();
    }
  });

  it("over https, a sibling subdomain's form cookie for the parent domain and its token do not log the visitor in; the dashboard's own forms still sign up and log in", async () => {
    const { certificate, url: dashboard, app, close } = await startHttpsDashboard(engine);
    const { value, fields } = await attackerPair(app);
    // Both names, for the whole parent domain: the browser drops the __Host- one, as it must.
    const planted = [`subpilot_form=${value}`, `__Host-subpilot_form=${value}`].map((pair) => `${pair}; Domain=${PARENT}; Path=/; Secure`);
    const attacker = await startAttacker({ certificate, cookies: planted, form: { action: `${dashboard}/dashboard/login`, fields } });
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const page = await context.newPage();
      expect(await visitAttacker(page, `https://evil.${PARENT}:${attacker.port}/`, `${dashboard}/dashboard/login`)).toBe(403);
      expect(await cookieNames(context, dashboard)).toEqual(['subpilot_form']);

      const visitor = uniqueEmail('visitor');
      await page.goto(`${dashboard}/dashboard/signup`);
      await page.getByLabel('Email').fill(visitor);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      // Sign-up signs in at once here (no mail): the form cookie gives way to the session's.
      await expect.poll(() => page.title()).toBe('API keys');
      expect(await cookieNames(context, dashboard)).toEqual(['__Host-subpilot_session', 'subpilot_form']);
      await page.getByRole('button', { name: 'Log out' }).click();
      await logInThroughTheForm(page, dashboard, visitor);
      expect(await page.content()).toContain(visitor);
      expect(await cookieNames(context, dashboard)).toEqual(['__Host-subpilot_session', 'subpilot_form']);
    } finally {
      await context.close();
      await attacker.close();
      await close();
    }
  });

  it("over https, a sibling subdomain's session cookie for the parent domain, holding the attacker's valid session, does not sign the visitor in; the dashboard's own log-in and log-out still work", async () => {
    const { certificate, url: dashboard, app, close } = await startHttpsDashboard(engine);
    const attackerEmail = uniqueEmail('attacker');
    await app.services.accounts.createAccount(attackerEmail, PASSWORD);
    const { id } = await app.services.sessions.logIn({ email: attackerEmail, password: PASSWORD, ip: '127.0.0.1' });
    // Both names again: the browser drops the __Host- one and keeps the other for every subdomain.
    const planted = [`subpilot_session=${id}`, `__Host-subpilot_session=${id}`].map((pair) => `${pair}; Domain=${PARENT}; Path=/; Secure`);
    const attacker = await startAttacker({ certificate, cookies: planted });
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const page = await context.newPage();
      await page.goto(`https://evil.${PARENT}:${attacker.port}/`);
      expect(await cookieNames(context, dashboard)).toEqual(['subpilot_session']);
      await page.goto(`${dashboard}/dashboard/keys`);
      expect(page.url()).toBe(`${dashboard}/dashboard/login`);
      expect(await page.content()).not.toContain(attackerEmail);

      const visitor = uniqueEmail('visitor');
      await app.services.accounts.createAccount(visitor, PASSWORD);
      await logInThroughTheForm(page, dashboard, visitor);
      expect(await page.content()).toContain(visitor);
      expect(await page.content()).not.toContain(attackerEmail);
      expect(await cookieNames(context, dashboard)).toEqual(['__Host-subpilot_session', 'subpilot_session']);
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(`${dashboard}/dashboard/login`);
      await page.goto(`${dashboard}/dashboard/keys`);
      expect(page.url()).toBe(`${dashboard}/dashboard/login`);
    } finally {
      await context.close();
      await attacker.close();
      await close();
    }
  });
});
