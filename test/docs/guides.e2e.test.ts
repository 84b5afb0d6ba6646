import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, WIDTHS, releaseChromium, requireChromium, sharedChromium } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/** Console errors and CSP violations while a page loads: a document's markup the policy refused would show here. */
async function watch(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push(message.text());
  });
  page.on('pageerror', (error) => seen.push(error.message));
  await page.exposeFunction('reportViolation', (text: string) => seen.push(`CSP: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return seen;
}

/** The pages touch no database, so one engine is enough. */
const hasChromium = requireChromium('the guides');

describe.skipIf(!hasChromium)('the guides in Chromium at 1280 and 390 px', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { worker: false });
    browser = await sharedChromium();
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  // The index, the longest guide (tables and code), and one with a wide table.
  const cases = ['index', 'api', 'scrape'].flatMap((name) => WIDTHS.map(({ width, height }) => ({ name, width, height })));

  it.each(cases)('the $name page fits $width px with no error and no CSP violation, its list of guides on screen', async ({ name, width, height }) => {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    try {
      const seen = await watch(page);
      await page.goto(`${app.url}/docs/guides${name === 'index' ? '' : `/${name}`}`);
      const size = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        scrollHeight: document.documentElement.scrollHeight,
        innerWidth: window.innerWidth,
      }));
      // The whole page when it is short enough to draw: the API guide is 19,000 px tall at 1280 and 35,000 at
      // 390, and headless Chromium took over 30 s to draw it whole (even clipped), so it shows its first screen.
      await page.screenshot({ path: `${SCREENSHOTS}/guides-${name}-${width}.png`, fullPage: size.scrollHeight <= 8000 });
      expect(size.scrollWidth, `the page is ${size.scrollWidth} px wide`).toBeLessThanOrEqual(size.innerWidth);
      // Code wraps on a phone rather than hide the ends of its lines.
      if (width < 500) expect(await page.$$eval('pre', (blocks) => blocks.filter((b) => b.scrollWidth > b.clientWidth).length)).toBe(0);
      if (name !== 'index') await expect.poll(() => page.locator('nav.guide-list a[aria-current="page"]').count()).toBe(1);
      expect(seen).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a link between guides leads to the section it names, on this server', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/docs/guides/queries`);
      await page.locator('article a[href="/docs/guides/monitors#creating-a-monitor"]').first().click();
      await page.waitForURL(`${app.url}/docs/guides/monitors#creating-a-monitor`);
      expect(await page.locator('#creating-a-monitor').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
