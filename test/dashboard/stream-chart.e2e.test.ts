import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { SCREENSHOTS, WIDTHS, logIn, releaseChromium, requireChromium, sharedChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { createFirehose } from '../support/fake-reddit-firehose.ts';
import { startMonitorsApp } from '../support/monitors.ts';

const PASSWORD = 'correct horse battery';
/** Layout does not depend on the database engine, so one (SQLite) is enough. */
const hasChromium = requireChromium('the chart of all of Reddit');

describe.skipIf(!hasChromium)('the chart of all of Reddit on the Monitors page in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  const email = uniqueEmail('stream-chart-e2e');
  beforeAll(async () => {
    // A stream that falls behind its bound: read, not shown and skipped all drawn.
    const started = await startMonitorsApp('sqlite', {
      env: { REDDIT_STREAM_SHARE: '0.5', REDDIT_REQUESTS_PER_MINUTE: '60', REDDIT_STREAM_MAX_LAG_SECONDS: '60' },
      waitsMoveClock: true,
    });
    app = started.app;
    app.reddit.firehose = createFirehose({ clock: () => started.clock.now().getTime(), perSecond: 100, subreddits: ['node'] });
    for (let t = 0; t < 200; t += 10) {
      started.clock.advance(10);
      await app.services.monitorStream!.runCycle();
    }
    await app.services.accounts.createAccount(email, PASSWORD);
    browser = await sharedChromium();
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  it.each(WIDTHS)('fits $width px, its bars and key in sight', async ({ width, height }) => {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    try {
      await logIn(page, app.url, email, PASSWORD);
      await page.goto(`${app.url}/dashboard/monitors`);
      const section = page.locator('section[aria-labelledby="all-of-reddit"]');
      await section.screenshot({ path: `${SCREENSHOTS}/stream-chart-${width}.png` });
      const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(size.scrollWidth).toBeLessThanOrEqual(size.innerWidth);
      const chart = await section.locator('svg').boundingBox();
      expect(chart!.width).toBeGreaterThan(width / 2);
      expect(chart!.x + chart!.width).toBeLessThanOrEqual(width);
      expect(await section.locator('rect.stream-skipped').count()).toBeGreaterThan(0);
      expect(await section.locator('.stream-key').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
