import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, logIn, requireChromium } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';

const PASSWORD = 'correct horse battery';
const SUMMARY = 'Find Reddit posts in subreddits that match keywords';
/**
 * Swagger UI draws the whole document in the browser: a few seconds of CPU on an idle machine, and more
 * than 10 s once when the gate's first suites all started together. The waits are bounded by the loaded
 * machine, not by the page (a page that never draws still fails, after PAGE_WAIT), and each test gets
 * room for its two or three waits.
 */
const PAGE_WAIT = 25_000;
const TEST_TIME = 90_000;

/** What the browser did while the page loaded, beyond what it shows. */
interface Watch {
  errors: string[];
  violations: string[];
  offOrigin: string[];
  /** Answers of 400 and up: a file the page names and this server does not have. */
  refused: string[];
}

/**
 * Every console error, uncaught exception, CSP violation and request to a host other than 127.0.0.1;
 * those requests are also refused, so a CDN or font the page still wanted would leave it broken on screen.
 */
async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { errors: [], violations: [], offOrigin: [], refused: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(message.text());
  });
  page.on('pageerror', (error) => seen.errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) seen.refused.push(`${response.status()} ${response.url()}`);
  });
  await page.exposeFunction('reportViolation', (text: string) => seen.violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    seen.offOrigin.push(url.href);
    return route.abort();
  });
  return seen;
}

/** The page touches no database, so one engine is enough. */
const hasChromium = requireChromium('the API reference page');

describe.skipIf(!hasChromium)('GET /docs in Chromium at 1280 and 390 px', () => {
  let app: TestApp;
  let browser: Browser;
  /** "METHOD path" of every operation in /openapi.json but the HEAD twins of GETs, which the list shows once, as the GET. */
  let operations: string[] = [];
  let headTwins = 0;

  beforeAll(async () => {
    app = await startTestApp('sqlite', { worker: false });
    type Items = Record<string, Record<string, unknown>>;
    const doc = (await (await app.api('GET', '/openapi.json')).json()) as { paths: Items; webhooks: Items };
    // The page draws the webhooks (events we send) beside the paths, each under its event name.
    operations = [...Object.entries(doc.paths), ...Object.entries(doc.webhooks)].flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => method !== 'head' || !('get' in item))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    headTwins = Object.values(doc.paths).filter((item) => 'head' in item && 'get' in item).length;
    browser = await sharedChromium();
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  it.each(WIDTHS)('at $width px it draws every operation of /openapi.json once (a GET and its HEAD as the GET) from this origin alone, with no error and no CSP violation', async ({ name, width, height }) => {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.setDefaultTimeout(PAGE_WAIT);
    try {
      const seen = await watch(page);
      await page.goto(`${app.url}/docs`);
      await page.getByText(SUMMARY).waitFor();

      const drawn = await page.$$eval('.opblock-summary', (blocks) =>
        blocks.map((block) => {
          const method = block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
          const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
          return `${method} ${path}`;
        }),
      );
      expect(drawn.sort()).toEqual([...operations].sort());
      expect(operations.length).toBeGreaterThan(10);
      expect(headTwins).toBeGreaterThan(10);

      await page.screenshot({ path: `${SCREENSHOTS}/docs-${name}-${width}.png`, fullPage: true });
      // One operation opened, as a reader would: its parameters and responses must fit too.
      await page.getByText(SUMMARY).click();
      await page.locator('.opblock.is-open .responses-wrapper').waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}/docs-${name}-${width}-open.png`, fullPage: true });

      const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(size.scrollWidth, `the page is ${size.scrollWidth} px wide`).toBeLessThanOrEqual(size.innerWidth);
      expect(seen).toEqual({ errors: [], violations: [], offOrigin: [], refused: [] });
    } finally {
      await context.close();
    }
  }, TEST_TIME);

  it('"Try it out" with a key given to "Authorize" calls the API on this origin and shows its answer', async () => {
    const { token } = await app.accountWithKey(7);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(PAGE_WAIT);
    try {
      const seen = await watch(page);
      await page.goto(`${app.url}/docs`);
      await page.getByRole('button', { name: 'Authorize' }).first().click();
      await page.locator('.auth-container input').fill(token);
      await page.locator('.auth-btn-wrapper button.authorize').click();
      await page.locator('.auth-btn-wrapper .btn-done').click();
      await page.getByText('Current credit balance (free)', { exact: true }).click();
      await page.getByRole('button', { name: 'Try it out' }).click();
      await page.getByRole('button', { name: 'Execute' }).click();
      const answer = page.locator('.live-responses-table tbody tr.response');
      await expect.poll(() => answer.locator('.response-col_status').textContent(), { timeout: PAGE_WAIT }).toBe('200');
      expect(await answer.locator('.response-col_description').textContent()).toContain('"balance": 7');
      expect(seen).toEqual({ errors: [], violations: [], offOrigin: [], refused: [] });
    } finally {
      await context.close();
    }
  }, TEST_TIME);

  it.each(WIDTHS)('at $width px the dashboard header links to it', async ({ name, width, height }) => {
    const email = uniqueEmail(`docs-link-${width}`);
    await app.services.accounts.createAccount(email, PASSWORD);
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.setDefaultTimeout(PAGE_WAIT);
    try {
      await logIn(page, app.url, email, PASSWORD);
      await page.locator('header.top').screenshot({ path: `${SCREENSHOTS}/docs-dashboard-header-${name}-${width}.png` });
      await page.locator('header').getByRole('link', { name: 'API docs' }).click();
      await page.waitForURL(`${app.url}/docs`);
      await page.getByText(SUMMARY).waitFor();
    } finally {
      await context.close();
    }
  }, TEST_TIME);
});
