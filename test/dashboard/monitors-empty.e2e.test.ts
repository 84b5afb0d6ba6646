import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, loggedInContexts, requireChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';

const hasChromium = requireChromium('dashboard Monitors empty list in Chromium');
const PASSWORD = 'correct horse battery';

describe.skipIf(!hasChromium).each(engines)('an empty Monitors list in Chromium on %s', (engine) => {
  let app: TestApp;
  let browser: Browser;
  let contexts: Map<number, BrowserContext>;

  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false });
    const email = uniqueEmail('monitors-empty');
    await app.services.accounts.createAccount(email, PASSWORD);
    browser = await sharedChromium();
    contexts = await loggedInContexts(browser, app.url, email, PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  it('its link brings the create form into view, on a laptop and on a phone', async () => {
    for (const { name, width, height } of WIDTHS) {
      const page = await contexts.get(width)!.newPage();
      await page.goto(`${app.url}/dashboard/monitors`);
      await page.getByRole('link', { name: 'Create your first monitor below ↓' }).click();
      await page.waitForURL(/#create-monitor$/);
      const heading = (await page.getByRole('heading', { name: 'Create a monitor' }).boundingBox())!;
      expect(heading.y, name).toBeGreaterThanOrEqual(0);
      expect(heading.y + heading.height, name).toBeLessThanOrEqual(height);
      expect(await page.getByLabel('Name').isVisible()).toBe(true);
      const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(size.scrollWidth, name).toBeLessThanOrEqual(size.innerWidth);
      await page.screenshot({ path: `${SCREENSHOTS}/monitors-empty-${name}-${engine}.png` });
      await page.close();
    }
  });
});
