import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';

const SECRET_KEY = 'd'.repeat(64);
const PASSWORD = 'correct horse battery';
const BANNER = /<p class="alert alert-warn low-balance" role="status">Low balance: (\d+) credits? left \(alert below (\d+)\)\. <a href="\/dashboard\/credits">Credits<\/a><\/p>/;
const PAGES = ['/dashboard/keys', '/dashboard/credits', '/dashboard/scrapes', '/dashboard/drafts', '/dashboard/publications', '/dashboard/webhooks', '/dashboard/no-such-page'];

describe.each(engines)('the low-balance threshold, account endpoint and banner in the dashboard on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true' } });
  });
  afterAll(() => app.close());

  async function member(balance: number) {
    const email = uniqueEmail('low');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    if (balance > 0) await app.services.credits.grant(account.id, balance, 'test');
    const browser = new DashboardClient(app.url);
    expect((await browser.logIn(email, PASSWORD)).status).toBe(303);
    return { browser, accountId: account.id };
  }
  const setThreshold = (browser: DashboardClient, threshold: string) =>
    browser.submit('/dashboard/credits', '/dashboard/credits/low-balance', { threshold });
  const setEndpoint = (browser: DashboardClient, url: string) =>
    browser.submit('/dashboard/webhooks', '/dashboard/webhooks/endpoint', { webhook_url: url });

  it('saves a threshold from the Credits page and shows it there; empty switches alerts off', async () => {
    const { browser, accountId } = await member(100);
    const saved = await setThreshold(browser, '25');
    expect(saved.status).toBe(303);
    expect(saved.location).toBe('/dashboard/credits?done=threshold');
    const page = (await browser.get(saved.location!)).body;
    expect(page).toContain('The low-balance threshold was saved.');
    expect(page).toContain('name="threshold" value="25"');
    expect(page).not.toMatch(BANNER);
    expect((await app.services.accountSettings.settings(accountId)).low_balance_threshold).toBe(25);

    expect((await setThreshold(browser, '')).status).toBe(303);
    expect((await app.services.accountSettings.settings(accountId)).low_balance_threshold).toBeNull();
    expect((await browser.get('/dashboard/credits')).body).toContain('name="threshold" value=""');
  });

  it('refuses a threshold that is not a whole number from 1 beside the form, refilled, and keeps the saved one', async () => {
    const { browser, accountId } = await member(100);
    await setThreshold(browser, '10');
    for (const bad of ['0', '-3', '2.5', 'ten', '1e3', '1000000001']) {
      const refused = await setThreshold(browser, bad);
      expect(refused.status, bad).toBe(422);
      expect(refused.body).toContain('A low-balance threshold is a whole number of credits from 1 to 1,000,000,000');
      expect(refused.body).toContain(`name="threshold" value="${bad}"`);
    }
    expect((await app.services.accountSettings.settings(accountId)).low_balance_threshold).toBe(10);
  });

  it('refuses a threshold form without the session CSRF token', async () => {
    const { browser, accountId } = await member(100);
    const forged = await browser.post('/dashboard/credits/low-balance', { threshold: '50' });
    expect(forged.status).toBe(403);
    expect((await app.services.accountSettings.settings(accountId)).low_balance_threshold).toBeNull();
  });

  it('shows the banner on every logged-in page while the spendable balance is below the threshold, and hides it once a grant lifts it', async () => {
    const { browser, accountId } = await member(8);
    expect((await setThreshold(browser, '10')).status).toBe(303);
    for (const path of PAGES) {
      const match = BANNER.exec((await browser.get(path)).body);
      expect(match?.slice(1), path).toEqual(['8', '10']);
    }
    await app.services.credits.grant(accountId, 2, 'top-up'); // 10: not below any more
    for (const path of PAGES) expect((await browser.get(path)).body, path).not.toMatch(BANNER);
    // A guest page shows no banner, whoever's balance is low.
    expect((await new DashboardClient(app.url).get('/dashboard/login')).body).not.toMatch(BANNER);
  });

  it('says "1 credit" in the banner, not "1 credits"', async () => {
    const { browser } = await member(1);
    await setThreshold(browser, '5');
    expect((await browser.get('/dashboard/keys')).body).toContain('Low balance: 1 credit left (alert below 5).');
  });

  it('saves the account endpoint from the Webhooks page, which says credits.low goes there; empty removes it', async () => {
    const { browser, accountId } = await member(0);
    const page = (await browser.get('/dashboard/webhooks')).body;
    expect(page).toContain('Account endpoint');
    expect(page).toMatch(/<code>credits\.low<\/code>,\s+sent once each time the balance falls below the threshold/);

    const saved = await setEndpoint(browser, ' http://127.0.0.1:9/hooks/account ');
    expect(saved.status).toBe(303);
    const shown = (await browser.get(saved.location!)).body;
    expect(shown).toContain('The account endpoint was saved.');
    expect(shown).toContain('value="http://127.0.0.1:9/hooks/account"');
    expect((await app.services.accountSettings.settings(accountId)).webhook_url).toBe('http://127.0.0.1:9/hooks/account');

    expect((await setEndpoint(browser, '')).status).toBe(303);
    expect((await app.services.accountSettings.settings(accountId)).webhook_url).toBeNull();
  });

  it('refuses an account endpoint at a private address, by the same rule as a scrape webhook_url, and keeps the saved one', async () => {
    const { browser, accountId } = await member(0);
    await setEndpoint(browser, 'http://127.0.0.1:9/hooks/account');
    const refused = await setEndpoint(browser, 'https://10.1.2.3/hook');
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('must not point at a private, link-local or reserved address');
    expect(refused.body).toContain('value="https://10.1.2.3/hook"');
    expect((await app.services.accountSettings.settings(accountId)).webhook_url).toBe('http://127.0.0.1:9/hooks/account');
  });
});
