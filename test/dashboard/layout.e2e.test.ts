import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, loggedInContexts, requireChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { startPublishingApp, type PublishingApp } from '../support/publishing.ts';
import { insertMatches } from '../support/monitor-rows.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

/** What the pages are filled with, known once the app runs. */
interface Fixture {
  scrapeId: string;
  monitorId: string;
}

interface LayoutPage {
  name: string;
  path: string | ((fixture: Fixture) => string);
  /** Runs on the loaded page before it is measured (a form post whose answer is the page to check). */
  setup?: (page: Page) => Promise<void>;
  /** Shown to someone who is not logged in: no nav. */
  guest?: boolean;
}

/** Every dashboard page, in the state that makes it widest; one line per page. */
const PAGES: LayoutPage[] = [
  { name: 'login', path: '/dashboard/login', guest: true },
  { name: 'signup', path: '/dashboard/signup', guest: true },
  {
    name: 'keys-created',
    path: '/dashboard/keys',
    setup: async (page) => {
      // Key names are unique per account: one key per width.
      await page.getByLabel('Name').fill(`a tool with a rather long name ${page.viewportSize()!.width}`);
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.locator('#new-token').waitFor();
    },
  },
  { name: 'keys', path: '/dashboard/keys' },
  {
    name: 'key',
    path: '/dashboard/keys',
    setup: async (page) => {
      await page.getByRole('link', { name: 'n8n production workflow' }).click();
      await page.waitForURL(/\/dashboard\/keys\/key_/);
    },
  },
  { name: 'credits', path: '/dashboard/credits' },
  { name: 'scrapes', path: '/dashboard/scrapes' },
  { name: 'scrape-results', path: (f) => `/dashboard/scrapes/${f.scrapeId}` },
  { name: 'monitors', path: '/dashboard/monitors' },
  { name: 'monitor', path: (f) => `/dashboard/monitors/${f.monitorId}` },
  { name: 'inbox', path: '/dashboard/inbox' },
  { name: 'drafts', path: '/dashboard/drafts' },
  { name: 'publications', path: '/dashboard/publications' },
  { name: 'webhooks', path: '/dashboard/webhooks' },
  { name: 'connections', path: '/dashboard/connections' },
  { name: 'not-found', path: '/dashboard/no-such-page' },
];

const PASSWORD = 'correct horse battery';
// A receiver path as long as real automation tools make them (n8n, Zapier): one unbroken string.
const LONG_PATH = `/webhook/${'4f1c2a9e-7b3d-4e8a-9c61-'.repeat(6)}catch?token=${'a1b2c3d4'.repeat(8)}`;

/** Layout does not depend on the database engine, so one (SQLite) is enough. */
const hasChromium = requireChromium('dashboard layout');

describe.skipIf(!hasChromium)('every dashboard page at 1280 and 390 px in Chromium', () => {
  let app: PublishingApp;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const fixture: Fixture = { scrapeId: '', monitorId: '' };
  const contexts = new Map<number, BrowserContext>();

  beforeAll(async () => {
    app = await startPublishingApp('sqlite', { env: { ALLOW_HTTP_WEBHOOKS: 'true' } });
    receiver = await startReceiver();
    app.reddit.posts.push({
      id: 'lay1',
      subreddit: 'automation',
      title: `How I wired n8n to Reddit: ${'averyveryverylongwordwithoutanyspaces'.repeat(3)}`,
      selftext: 'n8n',
      created_utc: Math.floor(Date.now() / 1000),
    });
    const email = uniqueEmail('layout-a-rather-long-address');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    await app.services.credits.grant(account.id, 50, 'welcome credits for the layout check');
    const { token } = await app.services.keys.createKey(account.id, 'n8n production workflow');
    const response = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/automation'], keywords: ['n8n', 'reddit'], webhook_url: `http://127.0.0.1:${receiver.port}${LONG_PATH}` },
      headers: { prefer: 'respond-async' },
    });
    expect(response.status).toBe(202);
    fixture.scrapeId = (await response.json()).id;
    await eventually(async () => (await app.services.webhooks.recentDeliveries(account.id))[0]?.status === 'delivered' || undefined);
    const monitor = await app.services.monitors.create(account.id, {
      name: 'n8n and Reddit automation mentions across the usual subreddits',
      subreddits: ['r/automation', 'r/n8n', 'r/selfhosted', 'r/nocode', 'r/zapier', 'r/make_com_automations'],
      keywords: ['n8n', 'averyveryverylongkeywordwithoutanyspacesatall'],
      sources: ['posts', 'comments'],
      webhook_url: `http://127.0.0.1:${receiver.port}${LONG_PATH}`,
    }, { via: 'dashboard' });
    fixture.monitorId = monitor.id;
    await insertMatches(app.services.db, { monitorId: monitor.id, accountId: account.id, count: 3, title: `n8n: ${'averyveryverylongwordwithoutanyspaces'.repeat(3)}` });

    browser = await sharedChromium();
    for (const [width, context] of await loggedInContexts(browser, app.url, email, PASSWORD)) contexts.set(width, context);
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await receiver?.close();
    await app?.close();
  });

  const cases = PAGES.flatMap((entry) => WIDTHS.map(({ width }) => ({ entry, width })));

  it.each(cases)('the $entry.name page fits $width px without sideways scrolling, nav and "Log out" on one line each', async ({ entry, width }) => {
    const context = entry.guest ? await browser.newContext({ viewport: { width, height: 844 } }) : contexts.get(width)!;
    const page = await context.newPage();
    page.setDefaultTimeout(5000);
    try {
      const path = typeof entry.path === 'string' ? entry.path : entry.path(fixture);
      await page.goto(`${app.url}${path}`);
      await entry.setup?.(page);
      await page.screenshot({ path: `${SCREENSHOTS}/layout-${entry.name}-${width}.png`, fullPage: true });

      const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(size.scrollWidth, `${entry.name} at ${width} px is ${size.scrollWidth} px wide`).toBeLessThanOrEqual(size.innerWidth);
      expect(await page.evaluate(spills), 'elements reaching past the page content').toEqual([]);
      // A command cut off at the edge is copied blind: code blocks wrap instead.
      expect(await page.$$eval('pre', (blocks) => blocks.filter((b) => b.scrollWidth > b.clientWidth).length), 'cut-off code blocks').toBe(0);

      const lines = await page.evaluate(headerLines);
      if (entry.guest) return expect(lines).toEqual([]);
      expect(lines.map((l) => l.text)).toEqual(expect.arrayContaining(['API keys', 'Credits', 'Scrapes', 'Inbox', 'Webhooks', 'Connections', 'Guides', 'API docs', 'Log out']));
      for (const line of lines) {
        expect(line, `"${line.text}" is on screen`).toMatchObject({ visible: true });
        expect(line.lines, `"${line.text}" is on one line`).toBe(1);
      }
    } finally {
      await page.close();
      if (entry.guest) await context.close();
    }
  });
});

/** Runs in the page: what sticks out of <main> sideways, except inside code blocks, which scroll on their own (tables do not: table-cards.e2e). */
function spills(): string[] {
  const main = document.querySelector('main')!;
  const edge = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight);
  const scrolls = (el: Element) => el.closest('pre') !== null && !el.matches('pre');
  // A card's header row is there for screen readers only, cut to nothing by its clip-path: it reaches nowhere one can see.
  const clipped = (el: Element) => el.closest('.table-cards thead') !== null && getComputedStyle(el.closest('thead')!).clipPath !== 'none';
  return [...main.querySelectorAll('*')]
    .filter((el) => !scrolls(el) && !clipped(el) && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > edge + 1)
    .map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${el.className}` : ''} ends at ${Math.round(el.getBoundingClientRect().right)} px, past ${Math.round(edge)}`);
}

/** Runs in the page: each nav link and the "Log out" button, whether it is inside the viewport and how many lines it takes. */
function headerLines(): { text: string; visible: boolean; lines: number }[] {
  const items = [...document.querySelectorAll('header nav a, header .logout button')] as HTMLElement[];
  return items.map((el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const lineHeight = style.lineHeight === 'normal' ? parseFloat(style.fontSize) * 1.2 : parseFloat(style.lineHeight);
    const content = box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
    return {
      text: el.textContent!.trim(),
      visible: box.width > 0 && box.left >= 0 && box.right <= window.innerWidth && style.visibility !== 'hidden',
      lines: Math.round(content / lineHeight),
    };
  });
}
