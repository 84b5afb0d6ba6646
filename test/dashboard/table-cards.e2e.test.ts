import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, loggedInContexts, requireChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { insertMatches } from '../support/monitor-rows.ts';
import { startPublishingApp, type PublishingApp } from '../support/publishing.ts';

const PASSWORD = 'correct horse battery';

/** The two lists with the most columns, each as its page and the selector of its table. */
const TABLES = [
  { name: 'monitors', path: '/dashboard/monitors', table: 'table.mon-table' },
  { name: 'credits', path: '/dashboard/credits', table: 'section[aria-labelledby="usage"] table' },
] as const;

/** What a table shows in the page, measured in the page: its box, its cells and each cell's label. */
interface Measured {
  box: { scrollWidth: number; clientWidth: number };
  rowDisplay: string;
  headersShown: boolean;
  cells: { header: string; label: string; text: string; left: number; right: number; width: number; height: number }[];
}

/** Runs in the page. A cell's label is what its ::before shows (the card's "Amount:"), its header the column's <th>. */
function measure([selector]: [string]): Measured {
  const table = document.querySelector(selector) as HTMLTableElement;
  const scroller = (table.closest('.table-scroll') ?? table) as HTMLElement;
  const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent!.trim());
  const head = table.querySelector('thead')!.getBoundingClientRect();
  const cells = [...table.querySelectorAll('tbody tr')].flatMap((tr) =>
    [...tr.querySelectorAll('td')].map((td, i) => {
      const box = td.getBoundingClientRect();
      const label = getComputedStyle(td, '::before').content;
      return { header: headers[i]!, label, text: td.textContent!.trim(), left: box.left, right: box.right, width: box.width, height: box.height };
    }),
  );
  return {
    box: { scrollWidth: Math.max(scroller.scrollWidth, table.scrollWidth), clientWidth: scroller.clientWidth },
    rowDisplay: getComputedStyle(table.querySelector('tbody tr')!).display,
    headersShown: head.width > 1 && head.height > 1,
    cells,
  };
}

/** Layout does not depend on the database engine, so one (SQLite) is enough. */
const hasChromium = requireChromium('the Monitors and Credits tables as cards on a phone');

describe.skipIf(!hasChromium)('the Monitors list and the Credits ledger at 1280 and 390 px in Chromium', () => {
  let app: PublishingApp;
  let browser: Browser;
  const contexts = new Map<number, BrowserContext>();

  beforeAll(async () => {
    app = await startPublishingApp('sqlite');
    app.reddit.posts.push({ id: 'card1', subreddit: 'automation', title: 'n8n and Reddit', selftext: 'n8n', created_utc: Math.floor(Date.now() / 1000) });
    const email = uniqueEmail('table-cards');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    await app.services.credits.grant(account.id, 50, 'welcome credits for the cards check');
    // A charge made with a key: the ledger's Key and Via columns have something to show.
    const { token } = await app.services.keys.createKey(account.id, 'n8n production workflow');
    const scrape = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/automation'], keywords: ['n8n'] } });
    expect(scrape.status).toBe(200);
    const monitor = await app.services.monitors.create(account.id, {
      name: 'n8n and Reddit automation mentions across the usual subreddits',
      subreddits: ['r/automation', 'r/n8n', 'r/selfhosted', 'r/nocode', 'r/zapier', 'r/make_com_automations'],
      keywords: ['n8n', 'reddit automation'],
      query: '"n8n" AND (reddit OR "make.com") NOT hiring',
      sources: ['posts', 'comments'],
    }, { via: 'dashboard' });
    await insertMatches(app.services.db, { monitorId: monitor.id, accountId: account.id, count: 2 });
    browser = await sharedChromium();
    for (const [width, context] of await loggedInContexts(browser, app.url, email, PASSWORD)) contexts.set(width, context);
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  const open = async (width: number, path: string): Promise<Page> => {
    const page = await contexts.get(width)!.newPage();
    page.setDefaultTimeout(5000);
    expect((await page.goto(`${app.url}${path}`))!.status()).toBe(200);
    return page;
  };

  it.each(TABLES)('at 390 px the $name table shows each row as a card of label and value, with nothing scrolled out of sight', async ({ name, path, table }) => {
    const page = await open(390, path);
    try {
      await page.screenshot({ path: `${SCREENSHOTS}/table-cards-${name}-390.png`, fullPage: true });
      const measured = await page.evaluate(measure, [table] as [string]);
      expect(measured.cells.length, 'cells in the table').toBeGreaterThan(0);
      expect(measured.box.scrollWidth, `the ${name} table scrolls sideways`).toBeLessThanOrEqual(measured.box.clientWidth);
      for (const cell of measured.cells) {
        const where = `${cell.header} ("${cell.text}")`;
        expect(cell.width * cell.height, `${where} has a box`).toBeGreaterThan(0);
        expect(cell.left, `${where} starts inside the screen`).toBeGreaterThanOrEqual(0);
        expect(cell.right, `${where} ends inside the screen`).toBeLessThanOrEqual(390);
        // The header row is not shown on a card: each value carries its column's name instead.
        expect(cell.label, `${where} is labelled`).toBe(JSON.stringify(cell.header));
      }
    } finally {
      await page.close();
    }
  });

  it.each(TABLES)('at 1280 px the $name table stays a table with its header row', async ({ name, path, table }) => {
    const page = await open(1280, path);
    try {
      await page.screenshot({ path: `${SCREENSHOTS}/table-cards-${name}-1280.png`, fullPage: true });
      const measured = await page.evaluate(measure, [table] as [string]);
      expect(measured.rowDisplay).toBe('table-row');
      expect(measured.headersShown).toBe(true);
      expect(measured.box.scrollWidth).toBeLessThanOrEqual(measured.box.clientWidth);
      for (const cell of measured.cells) expect(cell.label, `${cell.header} has no label of its own`).toBe('none');
    } finally {
      await page.close();
    }
  });

  it('at 390 px a monitor’s row is still a row named by its monitor, as the Monitors page test finds it', async () => {
    const page = await open(WIDTHS[1].width, '/dashboard/monitors');
    try {
      const row = page.getByRole('row', { name: /n8n and Reddit automation mentions/ });
      expect(await row.locator('.badge').textContent()).toBe('active');
    } finally {
      await page.close();
    }
  });
});
