import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, loggedInContexts, requireChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';

const hasChromium = requireChromium('dashboard Scrapes page in Chromium');
const PASSWORD = 'correct horse battery';

/** 60 matching posts: 36 in r/node and 24 in r/deno; even ones say "alpha", odd ones "beta". */
function sixtyPosts() {
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: 60 }, (_, i) => ({
    id: `sp${i}`,
    subreddit: i < 36 ? 'node' : 'deno',
    title: `Post ${i} about ${i % 2 === 0 ? 'alpha' : 'beta'}`,
    created_utc: now - i * 60,
  }));
}

describe.skipIf(!hasChromium).each(engines)('the dashboard Scrapes page in Chromium on %s', (engine) => {
  let app: TestApp;
  let browser: Browser;
  let token: string;
  let scrapeId: string;
  const contexts = new Map<number, BrowserContext>();

  beforeAll(async () => {
    // The set-up's scrape is answered in the request (200): the default wait, not a short one that a
    // loaded machine outran (it answered 202 once the gate ran every suite side by side).
    app = await startTestApp(engine);
    app.reddit.posts.push(...sixtyPosts());
    const email = uniqueEmail('scrapes-page');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    await app.services.credits.grant(account.id, 50, 'scrapes page');
    ({ token } = await app.services.keys.createKey(account.id, 'scrapes page'));
    const response = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/node', 'r/deno'], keywords: ['alpha', 'beta'], limit: 100 },
    });
    expect(response.status).toBe(200);
    const scrape = await response.json();
    expect(scrape.results).toHaveLength(60);
    scrapeId = scrape.id;

    browser = await sharedChromium();
    for (const [width, context] of await loggedInContexts(browser, app.url, email, PASSWORD)) contexts.set(width, context);
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  const results = (page: Page) => page.locator('ol.results > li');
  const titles = async (page: Page) => (await page.locator('ol.results .result-title').allTextContents()).map((t) => t.trim());

  it('the list shows each scrape with its result count', async () => {
    for (const { name, width } of WIDTHS) {
      const page = await contexts.get(width)!.newPage();
      await page.goto(`${app.url}/dashboard/scrapes`);
      const row = page.getByRole('row', { name: /r\/node/ });
      expect(await page.locator('thead th').allTextContents()).toContain('Results');
      expect(await row.locator('td.num').first().textContent()).toBe('60');
      expect(await page.locator('.table-scroll table').count()).toBe(1);
      await page.screenshot({ path: `${SCREENSHOTS}/scrapes-list-${name}-${engine}.png`, fullPage: true });
      await page.close();
    }
  });

  it('shows 25 results a page, pages onward, and narrows them by keyword and by subreddit keeping the filter across pages', async () => {
    const page = await contexts.get(1280)!.newPage();
    await page.goto(`${app.url}/dashboard/scrapes/${scrapeId}`);
    expect(await page.getByRole('heading', { name: '60 posts' }).count()).toBe(1);
    expect(await results(page).count()).toBe(25);
    expect(await page.getByText('Page 1 of 3').count()).toBe(1);
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);

    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/page=2$/);
    expect(await results(page).count()).toBe(25);
    expect((await titles(page))[0]).toBe('Post 25 about beta');
    await page.getByRole('link', { name: 'Next →' }).click();
    expect(await results(page).count()).toBe(10);
    expect(await page.getByRole('link', { name: 'Next →' }).count()).toBe(0);

    await page.getByLabel('Keyword').selectOption('alpha');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/keyword=alpha/);
    expect(await page.getByRole('heading', { name: '30 of 60 posts' }).count()).toBe(1);
    expect((await titles(page)).every((t) => t.endsWith('alpha'))).toBe(true);
    expect(await results(page).count()).toBe(25);
    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/keyword=alpha.*page=2/);
    expect(await results(page).count()).toBe(5);

    await page.getByLabel('Subreddit').selectOption('r/deno');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/keyword=alpha&subreddit=r%2Fdeno/);
    expect(await page.getByRole('heading', { name: '12 of 60 posts' }).count()).toBe(1);
    expect(await page.getByLabel('Keyword').inputValue()).toBe('alpha');
    const deno = await page.locator('ol.results .muted bdi').allTextContents();
    expect(deno.filter((text) => text.startsWith('r/')).every((text) => text === 'r/deno')).toBe(true);

    await page.getByLabel('Keyword').selectOption('');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await page.getByRole('heading', { name: '24 of 60 posts' }).count()).toBe(1);
    await page.close();

    for (const { name, width } of WIDTHS) {
      const shot = await contexts.get(width)!.newPage();
      await shot.goto(`${app.url}/dashboard/scrapes/${scrapeId}?keyword=beta&page=2`);
      await shot.screenshot({ path: `${SCREENSHOTS}/scrape-results-${name}-${engine}.png`, fullPage: true });
      await shot.close();
    }
  });

  it('an async scrape opened while unfinished reloads itself until it shows completed, then stops reloading', async () => {
    // Under the test client's 2 s Reddit timeout, so the scrape is slow but completes.
    app.reddit.delayMs = 1500;
    const page = await contexts.get(390)!.newPage();
    try {
      const response = await app.api('POST', '/api/v1/scrape', {
        token,
        body: { subreddits: ['r/deno'], keywords: ['beta'] },
        headers: { prefer: 'respond-async' },
      });
      expect(response.status).toBe(202);
      const { id } = await response.json();
      let loads = 0;
      page.on('load', () => loads++);
      await page.goto(`${app.url}/dashboard/scrapes/${id}`);
      expect(await page.locator('.badge').first().textContent()).toMatch(/queued|running/);
      expect(await page.locator('meta[http-equiv="refresh"]').getAttribute('content')).toBe('2');
      await page.screenshot({ path: `${SCREENSHOTS}/scrape-running-phone-${engine}.png`, fullPage: true });

      await expect.poll(() => page.locator('.badge').first().textContent().catch(() => null), { timeout: 20_000 }).toBe('completed');
      expect(loads).toBeGreaterThan(1);
      expect(await page.getByRole('heading', { name: '12 posts' }).count()).toBe(1);
      expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
      const settled = loads;
      await page.waitForTimeout(2500);
      expect(loads).toBe(settled);
    } finally {
      app.reddit.delayMs = 0;
      await page.close();
    }
  });
});
