import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, loggedInContexts, requireChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';

const PASSWORD = 'correct horse battery';
const hasChromium = requireChromium('low-balance banner');

/** Layout does not depend on the database engine, so one (SQLite) is enough. */
describe.skipIf(!hasChromium)('the low-balance banner and forms at 1280 and 390 px in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  const contexts = new Map<number, BrowserContext>();

  beforeAll(async () => {
    app = await startTestApp('sqlite', { env: { SECRET_KEY: 'f'.repeat(64), ALLOW_HTTP_WEBHOOKS: 'true' } });
    const email = uniqueEmail('low-balance-with-a-long-address');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    await app.services.credits.grant(account.id, 1234, 'welcome credits');
    await app.services.accountSettings.setLowBalanceThreshold(account.id, 100_000);
    await app.services.accountSettings.setWebhookUrl(account.id, `http://127.0.0.1:9/hooks/${'a1b2c3d4-'.repeat(8)}account`);
    browser = await sharedChromium();
    for (const [width, context] of await loggedInContexts(browser, app.url, email, PASSWORD)) contexts.set(width, context);
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  const cases = ['credits', 'webhooks'].flatMap((name) => WIDTHS.map(({ width }) => ({ name, width })));

  it.each(cases)('the $name page shows the banner as a status with a link to Credits and fits $width px', async ({ name, width }) => {
    const page = await contexts.get(width)!.newPage();
    page.setDefaultTimeout(5000);
    try {
      await page.goto(`${app.url}/dashboard/${name}`);
      const banner = page.getByRole('status').filter({ hasText: 'Low balance' });
      expect(await banner.textContent()).toBe('Low balance: 1234 credits left (alert below 100000). Credits');
      expect(await banner.getByRole('link', { name: 'Credits' }).getAttribute('href')).toBe('/dashboard/credits');
      await page.screenshot({ path: `${SCREENSHOTS}/low-balance-${name}-${width}.png`, fullPage: true });

      const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(size.scrollWidth).toBeLessThanOrEqual(size.innerWidth);
      const box = (await banner.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    } finally {
      await page.close();
    }
  });
});
