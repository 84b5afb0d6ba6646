import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, loggedInContexts, requireChromium } from '../support/browser.ts';
import { PASSWORD, startTablePages, type TablePages } from '../support/table-pages.ts';

/** Every dashboard page with a table (test/support/table-pages.ts fills each); `table-cards-<page>-<width>.png` shows them. */
const PAGES = ['keys', 'credits', 'scrapes', 'monitors', 'drafts', 'publications', 'destinations', 'destination', 'webhooks'];

/** A value beside its label keeps at least this much room on a phone: less, and a text runs a word or two a line. */
const MIN_VALUE_WIDTH = 150;

interface Measured {
  tables: number;
  cells: number;
  problems: string[];
}

/**
 * Runs in the page at 390 px. Every table in <main>: no box from it up to <html> scrolls sideways or is pushed
 * wider than its content (nothing out of sight), and every cell, and everything in it, lies inside the screen
 * with room for its words, under its column's name (the ::before label the card shows; the header row is
 * hidden on a card).
 */
function onPhone(minValueWidth: number): Measured {
  const screen = window.innerWidth;
  const problems: string[] = [];
  const nameOf = (el: Element) => `${el.tagName.toLowerCase()}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
  const outside = (box: DOMRect) => box.width > 0 && (box.left < -0.5 || box.right > screen + 0.5);
  const tables = [...document.querySelectorAll('main table')];
  let cells = 0;
  if (document.documentElement.scrollWidth > screen) problems.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  tables.forEach((table, t) => {
    for (let box: Element | null = table; box; box = box.parentElement) {
      if (box.scrollWidth > box.clientWidth) problems.push(`table ${t + 1}: ${nameOf(box)} holds ${box.scrollWidth} px in ${box.clientWidth}`);
    }
    if (outside(table.getBoundingClientRect())) problems.push(`table ${t + 1} reaches past the screen`);
    const headers = [...table.querySelectorAll(':scope > thead th')].map((th) => th.textContent!.trim());
    table.querySelectorAll(':scope > tbody > tr').forEach((tr, r) => {
      tr.querySelectorAll(':scope > td').forEach((td, c) => {
        cells++;
        const where = `table ${t + 1}, row ${r + 1}, ${headers[c] || `column ${c + 1}`}`;
        const box = td.getBoundingClientRect();
        const style = getComputedStyle(td);
        const label = getComputedStyle(td, '::before');
        if (!headers[c]) problems.push(`${where}: the column has no name`);
        if (label.content !== JSON.stringify(headers[c]) || label.display === 'none' || label.visibility !== 'visible' || parseFloat(label.fontSize) < 10) {
          problems.push(`${where}: labelled ${label.content} (${label.display}, ${label.visibility}, ${label.fontSize})`);
        }
        if (box.width === 0 || box.height === 0 || style.visibility !== 'visible') problems.push(`${where}: not shown`);
        if (outside(box)) problems.push(`${where}: from ${Math.round(box.left)} to ${Math.round(box.right)} px`);
        const room = box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        if (room < minValueWidth) problems.push(`${where}: ${Math.round(room)} px for its value`);
        if (td.scrollWidth > td.clientWidth) problems.push(`${where}: holds ${td.scrollWidth} px in ${td.clientWidth}`);
        for (const inner of td.querySelectorAll('*')) {
          if (outside(inner.getBoundingClientRect())) problems.push(`${where}: ${nameOf(inner)} reaches past the screen`);
        }
      });
    });
  });
  return { tables: tables.length, cells, problems };
}

/** Runs in the page at 1280 px: each table is still a table, header row in sight, no label of a card, nothing scrolled out of sight. */
function onLaptop(): Measured {
  const problems: string[] = [];
  const tables = [...document.querySelectorAll('main table')];
  let cells = 0;
  tables.forEach((table, t) => {
    const head = table.querySelector(':scope > thead')!.getBoundingClientRect();
    if (head.height < 1 || head.width < 1) problems.push(`table ${t + 1}: its header row is hidden`);
    const scroller = table.closest('.table-scroll') ?? table;
    if (scroller.scrollWidth > scroller.clientWidth) problems.push(`table ${t + 1} holds ${scroller.scrollWidth} px in a box of ${scroller.clientWidth}`);
    table.querySelectorAll(':scope > tbody > tr').forEach((tr, r) => {
      if (getComputedStyle(tr).display !== 'table-row') problems.push(`table ${t + 1}, row ${r + 1}: not a table row`);
      tr.querySelectorAll(':scope > td').forEach((td, c) => {
        cells++;
        if (getComputedStyle(td, '::before').content !== 'none') problems.push(`table ${t + 1}, row ${r + 1}, cell ${c + 1}: labelled as on a card`);
      });
    });
  });
  return { tables: tables.length, cells, problems };
}

/** Layout does not depend on the database engine, so one (SQLite) is enough. */
const hasChromium = requireChromium('every dashboard table on a phone');

describe.skipIf(!hasChromium)('every dashboard table at 1280 and 390 px in Chromium', () => {
  let fixture: TablePages;
  let browser: Browser;
  const contexts = new Map<number, BrowserContext>();

  beforeAll(async () => {
    fixture = await startTablePages();
    browser = await sharedChromium();
    for (const [width, context] of await loggedInContexts(browser, fixture.app.url, fixture.email, PASSWORD)) contexts.set(width, context);
  }, 90_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await fixture?.close();
  });

  const open = async (width: number, name: string): Promise<Page> => {
    const page = await contexts.get(width)!.newPage();
    page.setDefaultTimeout(5000);
    const path = fixture.pages.find((p) => p.name === name)!.path;
    expect((await page.goto(`${fixture.app.url}${path}`))!.status()).toBe(200);
    await page.screenshot({ path: `${SCREENSHOTS}/table-cards-${name}-${width}.png`, fullPage: true });
    return page;
  };

  it.each(PAGES)('at 390 px every table of the %s page shows each row as a card, every value inside the screen beside its column’s name', async (name) => {
    const page = await open(390, name);
    try {
      const measured = await page.evaluate(onPhone, MIN_VALUE_WIDTH);
      expect(measured.tables, 'tables on the page').toBeGreaterThan(0);
      expect(measured.cells, 'cells in its tables').toBeGreaterThan(measured.tables);
      expect(measured.problems).toEqual([]);
      // Each link and button of a row (Revoke, View results, Retry now, Send test…) is in sight and takes a tap.
      const controls = page.locator('main table').locator('a, button');
      for (let i = 0; i < (await controls.count()); i++) await controls.nth(i).click({ trial: true });
    } finally {
      await page.close();
    }
  });

  it.each(PAGES)('at 1280 px every table of the %s page stays a table with its header row', async (name) => {
    const page = await open(1280, name);
    try {
      const measured = await page.evaluate(onLaptop);
      expect(measured.tables).toBeGreaterThan(0);
      expect(measured.problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('at 390 px a card is still a row named by what it lists, as the pages’ own tests find them', async () => {
    const monitors = await open(WIDTHS[1].width, 'monitors');
    const keys = await open(WIDTHS[1].width, 'keys');
    try {
      const row = monitors.getByRole('row', { name: /n8n and Reddit automation mentions/ });
      expect(await row.locator('.badge').textContent()).toBe('active');
      await keys.getByRole('row', { name: /n8n production workflow/ }).getByRole('link', { name: 'Revoke' }).click();
      await keys.waitForURL(/\/revoke$/);
      expect(await keys.getByRole('button', { name: 'Revoke key' }).isVisible()).toBe(true);
    } finally {
      await Promise.all([monitors.close(), keys.close()]);
    }
  });
});
