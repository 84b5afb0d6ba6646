import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, releaseChromium, sharedChromium, logIn, requireChromium } from '../support/browser.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { connectThroughDashboard, startPublishingApp, type PublishingApp } from '../support/publishing.ts';

const PASSWORD = 'correct horse battery';
const formAction = (csp: string | null) => /form-action ([^;]+)/.exec(csp ?? '')?.[1];

describe.each(engines)('the Connect Reddit form and the dashboard CSP on %s', (engine) => {
  let app: PublishingApp;
  beforeAll(async () => {
    app = await startPublishingApp(engine);
  });
  afterAll(() => app?.close());

  async function loggedIn() {
    const email = uniqueEmail('csp');
    await app.services.accounts.createAccount(email, PASSWORD);
    const dashboard = new DashboardClient(app.url);
    expect((await dashboard.logIn(email, PASSWORD)).status).toBe(303);
    return { email, dashboard };
  }

  it('lets only the page with the Connect form post towards Reddit’s authorization origin, and nowhere else', async () => {
    const { dashboard } = await loggedIn();
    const connections = await dashboard.get('/dashboard/connections');
    expect(connections.body).toContain('Connect Reddit');
    expect(formAction(connections.headers.get('content-security-policy'))).toBe(`'self' ${app.reddit.url}`);
    for (const path of ['/dashboard/keys', '/dashboard/credits', '/dashboard/webhooks', '/dashboard/login', '/dashboard/no-such-page']) {
      expect(formAction((await dashboard.get(path)).headers.get('content-security-policy')), path).toBe("'self'");
    }
    // Once connected, the page has no such form, so it keeps the strict policy.
    await connectThroughDashboard(app, dashboard, 'csp_user');
    const connected = await dashboard.get('/dashboard/connections');
    expect(connected.body).toContain('u/<bdi>csp_user</bdi>');
    expect(formAction(connected.headers.get('content-security-policy'))).toBe("'self'");
  });

  describe.skipIf(!requireChromium('Connect Reddit in Chromium'))('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await sharedChromium();
    });
    afterAll(() => releaseChromium(browser));

    it('"Connect Reddit" takes the browser to Reddit’s authorization page, and back to a connected account', async () => {
      const email = uniqueEmail('connect');
      await app.services.accounts.createAccount(email, PASSWORD);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(5000);
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      try {
        await logIn(page, app.url, email, PASSWORD);
        await page.getByRole('link', { name: 'Connections' }).click();
        await page.waitForURL(`${app.url}/dashboard/connections`);

        await page.getByRole('button', { name: 'Connect Reddit' }).click();
        await page.waitForURL((url) => url.href.startsWith(`${app.reddit.url}/api/v1/authorize?`));
        expect(refused).toEqual([]);
        expect(await page.title()).toBe('Authorize application');
        await page.screenshot({ path: `${SCREENSHOTS}/connect-reddit-authorize-${engine}.png` });

        // The person clicks "Allow"; Reddit sends the browser to the callback with a code.
        const authorize = new URL(page.url());
        const code = app.reddit.user.approve('browser_user', authorize.searchParams.get('redirect_uri')!);
        const state = encodeURIComponent(authorize.searchParams.get('state')!);
        await page.goto(`${app.url}/dashboard/connections/reddit/callback?state=${state}&code=${code}`);
        await page.waitForURL(`${app.url}/dashboard/connections?connected=1`);
        expect(await page.getByRole('status').textContent()).toBe('Reddit is connected.');
        expect(await page.locator('.facts').textContent()).toContain('u/browser_user');
        await page.screenshot({ path: `${SCREENSHOTS}/connect-reddit-connected-${engine}.png` });
      } finally {
        await context.close();
      }
    });
  });
});
