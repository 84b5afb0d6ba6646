import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, loggedInContexts, requireChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { insertMatches, type MatchVerdict } from '../support/monitor-rows.ts';

const hasChromium = requireChromium('dashboard relevance judging in Chromium');
const PASSWORD = 'correct horse battery';
const NAME = 'Tool requests';
const QUERY = '("which tool" OR recommend OR "looking for") (monitor OR alert OR tracker) -hiring type:post';
const INTENT = 'Someone asking which tool to use to watch subreddits for mentions of their product';

/**
 * Six matches, newest last: judged and delivered, one with a reason quoting a long unbroken URL (it
 * must wrap on a phone), one unjudged, and two judged below the bar of 70.
 */
const VERDICTS: MatchVerdict[] = [
  { relevance: 87, reason: 'The post asks for a pick: "which tool" to watch r/saas for mentions.' },
  { relevance: 12, reason: 'The post announces a job opening; it does not ask for a tool.', filtered: true },
  { error: { code: 'judge_unavailable', message: 'the language model answered HTTP 503' } },
  { relevance: 100, reason: 'Asks outright: "recommend a tracker", see https://example.com/a/very/long/path/that/never/breaks/anywhere/at/all' },
  { relevance: 64, reason: 'Mentions monitoring, but asks how to build one rather than which to use.', filtered: true },
  { relevance: 71, reason: 'Looking for an alert tool, though for Twitter as much as Reddit.' },
];

describe.skipIf(!hasChromium).each(engines)('the dashboard’s relevance judging in Chromium on %s', (engine) => {
  let app: TestApp;
  let browser: Browser;
  let accountId: string;
  let monitorId: string;
  const contexts = new Map<number, BrowserContext>();

  beforeAll(async () => {
    // A language model is configured (so an intent is taken) but never called: no worker, the verdicts are rows.
    app = await startTestApp(engine, { worker: false, env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'fake-model' } });
    const email = uniqueEmail('relevance-e2e');
    accountId = (await app.services.accounts.createAccount(email, PASSWORD)).id;
    browser = await sharedChromium();
    for (const [width, context] of await loggedInContexts(browser, app.url, email, PASSWORD)) contexts.set(width, context);
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  const field = (page: Page, name: string) => page.locator(`form.mon-form [name="${name}"]`);

  /** A screenshot of the page at every width, and that it fits without sideways scrolling. */
  async function shoot(path: string, shot: string) {
    for (const { name, width } of WIDTHS) {
      const page = await contexts.get(width)!.newPage();
      await page.goto(`${app.url}${path}`);
      // Taken before the check, so a page that overflows can be looked at.
      await page.screenshot({ path: `${SCREENSHOTS}/${shot}-${name}-${engine}.png`, fullPage: true });
      const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(size.scrollWidth, `${shot} at ${width} px`).toBeLessThanOrEqual(size.innerWidth);
      await page.close();
    }
  }

  it('creates a monitor with a query, an intent and a bar through the form, after showing a bad query’s error beside it', async () => {
    for (const { name, width } of WIDTHS) {
      const page = await contexts.get(width)!.newPage();
      await page.goto(`${app.url}/dashboard/monitors`);
      await field(page, 'name').fill(NAME);
      await field(page, 'subreddits').fill('saas, r/startups');
      await field(page, 'query').fill('("which tool" OR recommend');
      await field(page, 'intent').fill(INTENT);
      await field(page, 'min_relevance').fill('70');
      await page.getByRole('button', { name: 'Create monitor' }).click();
      const query = page.getByRole('textbox', { name: /^Query/ });
      await query.waitFor();
      expect(await query.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('form.mon-form .field-error').textContent()).toBe('Query is not a valid query: at character 1: ( is never closed');
      expect(await field(page, 'intent').inputValue()).toBe(INTENT);
      await page.locator('form.mon-form').screenshot({ path: `${SCREENSHOTS}/monitor-query-error-${name}-${engine}.png` });
      await page.close();
    }

    const page = await contexts.get(1280)!.newPage();
    await page.goto(`${app.url}/dashboard/monitors`);
    await field(page, 'name').fill(NAME);
    await field(page, 'subreddits').fill('saas, r/startups');
    await page.getByRole('textbox', { name: /^Query/ }).fill(QUERY);
    await page.getByRole('textbox', { name: /^Intent/ }).fill(INTENT);
    await page.getByRole('spinbutton', { name: /^Minimum relevance/ }).fill('70');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/dashboard\/monitors\/mon_[^/?]+\?done=created$/);
    monitorId = /monitors\/(mon_[^?]+)/.exec(page.url())![1]!;
    await page.close();
    expect(await app.services.monitors.get(accountId, monitorId)).toMatchObject({ keywords: [], query: QUERY, intent: INTENT, min_relevance: 70 });
    await shoot('/dashboard/monitors', 'monitors-list-query');
  });

  it('shows scores, reasons and an unjudged match under Delivered, and only the filtered ones under Filtered', async () => {
    await insertMatches(app.database.db, { monitorId, accountId, count: VERDICTS.length, verdict: (i) => VERDICTS[i]! });
    await app.database.db
      .insertInto('reddit_app_state')
      .values({ name: 'judge', state: 'failing', since: '2026-01-02T00:04:00.000Z', detail: 'the language model answered HTTP 503' })
      .execute();

    const page = await contexts.get(1280)!.newPage();
    await page.goto(`${app.url}/dashboard/monitors/${monitorId}`);
    expect(await page.locator('.mon-matches .result-title a').allTextContents()).toEqual(['Match 5', 'Match 3', 'Match 2', 'Match 0']);
    const judged = page.locator('.mon-match', { hasText: 'Match 0' });
    expect(await judged.getByRole('img', { name: 'relevance 87 of 100' }).textContent()).toBe('87');
    expect(await judged.locator('.mon-verdict').textContent()).toContain('The post asks for a pick');
    expect(await page.locator('.mon-match', { hasText: 'Match 2' }).locator('.mon-verdict').textContent()).toBe('not judged: the language model answered HTTP 503');
    expect(await page.locator('.mon-health-status').textContent()).toContain('because the relevance judge fails: the language model answered HTTP 503');

    await page.getByRole('link', { name: 'Filtered (below 70)' }).click();
    await page.waitForURL(`${app.url}/dashboard/monitors/${monitorId}?view=filtered#matches`);
    expect(await page.getByRole('heading', { level: 2, name: 'Filtered matches, newest first' }).count()).toBe(1);
    expect(await page.locator('.mon-matches .result-title a').allTextContents()).toEqual(['Match 4', 'Match 1']);
    expect(await page.getByRole('img', { name: 'relevance 64 of 100' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Filtered (below 70)' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('link', { name: 'Delivered' }).click();
    await page.waitForURL(`${app.url}/dashboard/monitors/${monitorId}#matches`);
    expect(await page.locator('.mon-matches > li').count()).toBe(4);
    await page.close();

    await shoot(`/dashboard/monitors/${monitorId}`, 'monitor-delivered');
    await shoot(`/dashboard/monitors/${monitorId}?view=filtered`, 'monitor-filtered');
  });
});
