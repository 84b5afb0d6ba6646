import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, loggedInContexts, requireChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { insertMatches } from '../support/monitor-rows.ts';

const hasChromium = requireChromium('dashboard Monitors page in Chromium');
const PASSWORD = 'correct horse battery';
const NAME = 'TypeScript and Deno mentions';

describe.skipIf(!hasChromium).each(engines)('the dashboard Monitors page in Chromium on %s', (engine) => {
  let app: TestApp;
  let browser: Browser;
  let accountId: string;
  let monitorId: string;
  const contexts = new Map<number, BrowserContext>();

  beforeAll(async () => {
    // No worker: the health and matches shown are the ones this suite stores.
    app = await startTestApp(engine, { worker: false });
    const email = uniqueEmail('monitors-page');
    accountId = (await app.services.accounts.createAccount(email, PASSWORD)).id;
    await app.services.credits.grant(accountId, 50, 'monitors page');
    browser = await sharedChromium();
    for (const [width, context] of await loggedInContexts(browser, app.url, email, PASSWORD)) contexts.set(width, context);
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  const field = (page: Page, name: string) => page.locator(`form.mon-form [name="${name}"]`);

  it('creates a monitor through the form and lists it', async () => {
    const page = await contexts.get(1280)!.newPage();
    await page.goto(`${app.url}/dashboard/monitors`);
    await page.getByRole('link', { name: 'Monitors' }).waitFor();
    await field(page, 'name').fill(NAME);
    await field(page, 'subreddits').fill('typescript, r/deno\nnode');
    await field(page, 'keywords').fill('type safety\nbun\ndeno deploy');
    await field(page, 'exclude_keywords').fill('hiring');
    await page.getByRole('radio', { name: /Whole words/ }).check();
    await page.getByRole('checkbox', { name: /Comments/ }).check();
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/dashboard\/monitors\/mon_[^/?]+\?done=created$/);
    monitorId = /monitors\/(mon_[^?]+)/.exec(page.url())![1]!;
    expect(await page.getByRole('status').textContent()).toContain('The monitor was created');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Monitor “${NAME}”`);
    await page.close();

    for (const { name, width } of WIDTHS) {
      const list = await contexts.get(width)!.newPage();
      await list.goto(`${app.url}/dashboard/monitors`);
      const row = list.getByRole('row', { name: new RegExp(NAME) });
      expect(await row.locator('.badge').textContent()).toBe('active');
      expect(await row.textContent()).toContain('r/typescript, r/deno, r/node');
      expect(await row.textContent()).toContain('Posts and Comments');
      await list.screenshot({ path: `${SCREENSHOTS}/monitors-list-${name}-${engine}.png`, fullPage: true });
      await list.close();
    }
  });

  it('opens the monitor and shows its health, gaps and matches with links to Reddit, then pauses and resumes it', async () => {
    await insertMatches(app.database.db, { monitorId, accountId, count: 27 });
    await app.database.db
      .insertInto('monitor_cursors')
      .values([
        { subreddit: 'typescript', source: 'posts', mark: 't3_m26', mark_at: '2026-01-02T00:26:00.000Z', read_at: '2026-01-02T00:27:00.000Z', error: null, error_at: null },
        { subreddit: 'deno', source: 'comments', mark: null, mark_at: null, read_at: null, error: 'unavailable', error_at: '2026-01-02T00:27:30.000Z' },
      ])
      .execute();
    await app.database.db
      .insertInto('monitor_gaps')
      .values({ monitor_id: monitorId, source: 'posts', subreddits: '["r/typescript"]', from_at: '2026-01-02T00:10:00.000Z', to_at: '2026-01-02T00:12:00.000Z', recorded_at: '2026-01-02T00:13:00.000Z' })
      .execute();

    const page = await contexts.get(1280)!.newPage();
    await page.goto(`${app.url}/dashboard/monitors`);
    await page.getByRole('link', { name: NAME }).click();
    await page.waitForURL(`${app.url}/dashboard/monitors/${monitorId}`);

    const health = page.locator('.mon-health > li');
    expect(await health.count()).toBe(3);
    expect(await health.filter({ hasText: 'r/typescript' }).textContent()).toContain('2026-01-02 00:27 UTC');
    expect(await health.filter({ hasText: 'r/deno' }).textContent()).toContain('unavailable');
    expect(await page.locator('.mon-gaps li').textContent()).toContain('2026-01-02 00:10 UTC to');

    const matches = page.locator('.mon-matches > li');
    expect(await matches.count()).toBe(25);
    const newest = matches.first().locator('.result-title a');
    expect(await newest.textContent()).toBe('Match 26');
    expect(await newest.getAttribute('href')).toBe('https://www.reddit.com/r/typescript/comments/m26/match_26/');
    expect(await newest.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await newest.getAttribute('target')).toBe('_blank');
    await page.getByRole('link', { name: 'Older matches →' }).click();
    await page.waitForURL(/cursor=/);
    expect(await page.locator('.mon-matches > li .result-title a').allTextContents()).toEqual(['Match 1', 'Match 0']);
    await page.getByRole('link', { name: 'Newest' }).click();

    await page.getByRole('button', { name: 'Pause monitor' }).click();
    await page.waitForURL(/done=paused$/);
    expect(await page.locator('.mon-status .badge').textContent()).toBe('paused');
    expect(await page.locator('.mon-status .mon-reason').textContent()).toBe('Paused by you');
    await page.getByRole('button', { name: 'Resume monitor' }).click();
    await page.waitForURL(/done=resumed$/);
    expect(await page.locator('.mon-status .badge').textContent()).toBe('active');
    expect(await page.locator('.mon-status .mon-reason').count()).toBe(0);
    await page.close();

    for (const { name, width } of WIDTHS) {
      const detail = await contexts.get(width)!.newPage();
      await detail.goto(`${app.url}/dashboard/monitors/${monitorId}`);
      const size = await detail.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(size.scrollWidth).toBeLessThanOrEqual(size.innerWidth);
      await detail.screenshot({ path: `${SCREENSHOTS}/monitor-detail-${name}-${engine}.png`, fullPage: true });
      await detail.close();
    }
  });
});
