import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, loggedInContexts, requireChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';

const PASSWORD = 'correct horse battery';

/** Layout does not depend on the database engine, so one (SQLite) is enough. */
const hasChromium = requireChromium('API key controls');

describe.skipIf(!hasChromium)('API key controls in Chromium at 1280 and 390 px: create, spend, chart, roll', () => {
  let app: TestApp;
  let browser: Browser;
  const contexts = new Map<number, BrowserContext>();

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    app.reddit.posts.push({ id: 'kce1', subreddit: 'n8n', title: 'Reddit automation with n8n', created_utc: Math.floor(Date.now() / 1000) });
    const email = uniqueEmail('key-controls');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    await app.services.credits.grant(account.id, 100, 'welcome');
    browser = await sharedChromium();
    for (const [width, context] of await loggedInContexts(browser, app.url, email, PASSWORD)) contexts.set(width, context);
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  /** Screenshot, then check nothing makes the page scroll sideways. */
  async function look(page: Page, name: string, width: number) {
    await page.screenshot({ path: `${SCREENSHOTS}/key-controls-${name}-${width}.png`, fullPage: true });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `${name} at ${width} px`).toBeLessThanOrEqual(width);
  }

  it.each(WIDTHS)('at $width px a key with scopes, a limit and an expiry spends, shows its chart, and rolls to a new token shown once', async ({ width }) => {
    const page = await contexts.get(width)!.newPage();
    page.setDefaultTimeout(5000);
    const name = `zapier ${width}`;
    const expires = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    try {
      await page.goto(`${app.url}/dashboard/keys`);
      await page.getByLabel('Name').fill(name);
      for (const scope of ['monitors', 'generate', 'publish']) await page.getByRole('checkbox', { name: new RegExp(`^${scope}`) }).uncheck();
      await page.getByLabel('Monthly credit limit').fill('50');
      await page.getByLabel('Expires').fill(expires);
      await look(page, 'form', width);
      await page.getByRole('button', { name: 'Create key' }).click();
      const token = (await page.locator('#new-token').textContent())!.trim();
      expect(token).toMatch(/^ak_live_[0-9a-f]{64}$/);
      await look(page, 'created', width);

      const scrape = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/n8n'], keywords: ['reddit', 'n8n'] } });
      expect(scrape.status).toBe(200);

      await page.goto(`${app.url}/dashboard/keys`);
      const row = page.getByRole('row').filter({ hasText: name });
      await expect.poll(() => row.textContent()).toMatch(/read, scrape[\s\S]*2 \/ 50[\s\S]*00:00 UTC/);
      expect(await page.locator('#new-token').count()).toBe(0);
      await look(page, 'list', width);

      await row.getByRole('link', { name }).click();
      await page.waitForURL(/\/dashboard\/keys\/key_/);
      expect(await page.locator('.facts').textContent()).toContain('2 of 50 credits');
      expect(await page.locator('svg[role="img"] rect').count()).toBe(30);
      expect(await page.locator('figcaption').textContent()).toContain('2 credits in the last 30 days');
      expect(await page.getByRole('img').getAttribute('aria-labelledby')).toBeTruthy();
      await look(page, 'key', width);

      await page.getByLabel('The old key stops working').selectOption('24h');
      await page.getByRole('button', { name: 'Roll key' }).click();
      const rolled = (await page.locator('#new-token').textContent())!.trim();
      expect(rolled).toMatch(/^ak_live_[0-9a-f]{64}$/);
      expect(rolled).not.toBe(token);
      expect(await page.locator('.old-key').textContent()).toMatch(/keeps working until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      await look(page, 'rolled', width);

      for (const key of [token, rolled]) expect((await app.api('GET', '/api/v1/balance', { token: key })).status).toBe(200);
      await page.goto(`${app.url}/dashboard/keys`);
      expect(await page.content()).not.toContain(rolled.slice(8));
      expect(await page.getByRole('row').filter({ hasText: token.slice(0, 16) }).textContent()).toContain('expires in 24 h');
      expect(await page.getByRole('row').filter({ hasText: rolled.slice(0, 16) }).textContent()).toMatch(/read, scrape[\s\S]*0 \/ 50[\s\S]*active/);
    } finally {
      await page.close();
    }
  });
});
