import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, WIDTHS, logIn, releaseChromium, requireChromium, sharedChromium } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { startFakeDiscord, startFakeSlack, type FakeChat } from '../support/fake-chat-webhooks.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/fake-smtp.ts';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.ts';
import { SECRET_KEY_HEX } from '../support/publishing.ts';

const PASSWORD = 'correct horse battery';
/** The browser's zone, which the daily digest's time zone starts from. */
const ZONE = 'America/New_York';

/** Runs in the page: how wide the page is, and what sticks out of <main> sideways outside boxes that scroll on their own. */
function overflow(): { scrollWidth: number; innerWidth: number; spills: string[] } {
  const main = document.querySelector('main')!;
  const edge = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight);
  const scrolls = (el: Element) => el.closest('.table-scroll, pre') !== null && !el.matches('.table-scroll, pre');
  const spills = [...main.querySelectorAll('*')]
    .filter((el) => !scrolls(el) && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > edge + 1)
    .map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${el.className}` : ''} ends at ${Math.round(el.getBoundingClientRect().right)} px, past ${Math.round(edge)}`);
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, spills };
}

/**
 * Runs in the page: whether a table's box scrolls sideways (a column out of sight), and each cell of its
 * rows with the label its card shows (`none` while it is a table).
 */
function cells(selector: string) {
  const table = document.querySelector(selector)!;
  const box = table.closest('.table-scroll')!;
  return {
    scrolls: box.scrollWidth > box.clientWidth,
    cells: [...table.querySelectorAll('tbody td')].map((td) => ({
      header: td.getAttribute('data-label'),
      label: getComputedStyle(td, '::before').content,
      right: td.getBoundingClientRect().right,
    })),
  };
}

/** Layout does not depend on the database engine, so one (SQLite) is enough. */
const hasChromium = requireChromium('the Destinations page and a monitor’s Alerts');

describe.skipIf(!hasChromium)('the Destinations page and a monitor’s Alerts at 1280 and 390 px in Chromium', () => {
  let app: TestApp;
  let fakes: { slack: FakeChat; discord: FakeChat; smtp: FakeSmtp; telegram: FakeTelegram };
  let browser: Browser;
  const contexts = new Map<number, BrowserContext>();
  const ids = { telegram: '', slack: '', off: '', monitor: '' };

  beforeAll(async () => {
    const [slack, discord, smtp, telegram] = await Promise.all([startFakeSlack(), startFakeDiscord(), startFakeSmtp(), startFakeTelegram()]);
    fakes = { slack, discord, smtp, telegram };
    app = await startTestApp('sqlite', {
      worker: false,
      env: { SECRET_KEY: SECRET_KEY_HEX, PUBLIC_URL: 'https://app.subpilot.test', SMTP_URL: smtp.url, MAIL_FROM: 'alerts@subpilot.test', TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_URL: telegram.url },
      overrides: { chat: { bases: { slack: [slack.url], discord: [discord.url] } } },
    });
    const email = uniqueEmail('destinations-layout');
    const { id: accountId } = await app.services.accounts.createAccount(email, PASSWORD);
    const { destinations, alerts, db } = app.services;
    const add = async (input: Parameters<typeof destinations.create>[1]) => (await destinations.create(accountId, input)).id;

    // Each kind, each status: active webhooks, one switched off by Slack, addresses waiting, confirmed and unsubscribed, chats waiting and linked.
    ids.slack = await add({ kind: 'slack', name: '#leads', url: slack.newWebhook() });
    await add({ kind: 'discord', name: 'Growth team · product-feedback-and-feature-requests', url: discord.newWebhook() });
    const gone = slack.newWebhook();
    ids.off = await add({ kind: 'slack', name: '#old-campaign', url: gone });
    await add({ kind: 'email', name: 'Sales inbox', address: 'sales.team.north-america.enterprise@example-company.com' });
    const confirmed = await add({ kind: 'email', name: 'Founder', address: 'jane@example.com' });
    const unsubscribed = await add({ kind: 'email', name: 'Agency', address: 'alerts@agency.example' });
    ids.telegram = await add({ kind: 'telegram', name: 'Team chat' });
    const linked = await add({ kind: 'telegram', name: 'Marketing group' });
    const code = (await destinations.get(accountId, linked)).link!.split('start=')[1]!;
    telegram.userSends('-1001', `/start ${code}`, { type: 'group', title: 'Marketing — EMEA' });
    await app.services.telegramLinking!.pollOnce(0);
    await db.updateTable('destinations').set({ status: 'active', confirm_expires_at: null }).where('id', '=', confirmed).execute();
    await db.updateTable('destinations').set({ status: 'off', off_reason: 'the recipient unsubscribed (one click in a mail)' }).where('id', '=', unsubscribed).execute();
    slack.remove(gone);
    for (const id of [ids.slack, ids.off]) {
      await destinations.sendTest(accountId, id);
      await destinations.drain(id);
    }

    const monitor = await app.services.monitors.create(accountId, { name: 'CRM questions', subreddits: ['r/sales', 'r/marketing'], keywords: ['crm'] }, { via: 'dashboard' });
    ids.monitor = monitor.id;
    await alerts.route(accountId, monitor.id, ids.slack, { frequency: 'instant' });
    await alerts.route(accountId, monitor.id, ids.off, { frequency: 'hourly' });
    await alerts.route(accountId, monitor.id, confirmed, { frequency: 'daily', at: '08:30', time_zone: 'Europe/Berlin' });

    browser = await sharedChromium();
    for (const { width, height } of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height }, timezoneId: ZONE });
      const page = await context.newPage();
      await logIn(page, app.url, email, PASSWORD);
      await page.close();
      contexts.set(width, context);
    }
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
    await Promise.all([fakes?.slack.close(), fakes?.discord.close(), fakes?.smtp.close(), fakes?.telegram.close()]);
  });

  const open = async (width: number, path: string): Promise<Page> => {
    const page = await contexts.get(width)!.newPage();
    page.setDefaultTimeout(5000);
    expect((await page.goto(`${app.url}${path}`))!.status()).toBe(200);
    return page;
  };
  const fits = async (page: Page, what: string) => {
    const measured = await page.evaluate(overflow);
    expect(measured.scrollWidth, `${what} is ${measured.scrollWidth} px wide`).toBeLessThanOrEqual(measured.innerWidth);
    expect(measured.spills, `${what}: elements reaching past the page content`).toEqual([]);
  };

  it.each(WIDTHS)('the list of every kind and status fits $width px, a card per destination on a phone', async ({ width }) => {
    const page = await open(width, '/dashboard/destinations');
    try {
      await page.screenshot({ path: `/tmp/destinations-${width}.png`, fullPage: true });
      await fits(page, `the Destinations page at ${width} px`);
      const shown = await page.evaluate(cells, 'table.dst-table');
      expect(shown.scrolls, 'the list scrolls sideways').toBe(false);
      expect(shown.cells).toHaveLength(8 * 6);
      for (const cell of shown.cells) {
        expect(cell.right, `${cell.header} ends inside the screen`).toBeLessThanOrEqual(width);
        expect(cell.label).toBe(width < 600 ? JSON.stringify(cell.header) : 'none');
      }
      await expect(page.getByRole('row', { name: /#old-campaign/ }).locator('.dst-reason').textContent()).resolves.toMatch(/no_service/);
    } finally {
      await page.close();
    }
  });

  it.each(WIDTHS)('a Telegram chat just added shows its link to open at $width px, and a destination’s messages fit', async ({ width }) => {
    const page = await open(width, `/dashboard/destinations?added=${ids.telegram}`);
    try {
      await page.screenshot({ path: `${SCREENSHOTS}/destinations-telegram-${width}.png`, fullPage: true });
      await fits(page, `the Telegram link at ${width} px`);
      await expect(page.getByRole('link', { name: 'Open in Telegram' }).getAttribute('href')).resolves.toMatch(/^https:\/\/t\.me\/subpilot_test_bot\?start=/);
      for (const id of [ids.slack, ids.off]) {
        await page.goto(`${app.url}/dashboard/destinations/${id}`);
        await page.screenshot({ path: `${SCREENSHOTS}/destination-${id === ids.off ? 'off' : 'active'}-${width}.png`, fullPage: true });
        await fits(page, `a destination's page at ${width} px`);
        await expect(page.evaluate(cells, 'table.dst-messages').then((shown) => shown.scrolls), 'its messages scroll sideways').resolves.toBe(false);
      }
    } finally {
      await page.close();
    }
  });

  it('shows only the fields of the chosen kind once its script runs', async () => {
    const page = await open(1280, '/dashboard/destinations');
    try {
      await expect(page.getByLabel(/Webhook URL/).isVisible()).resolves.toBe(true);
      await expect(page.getByLabel(/Email address/).isVisible()).resolves.toBe(false);
      await page.getByLabel('Kind').selectOption('email');
      await expect(page.getByLabel(/Webhook URL/).isVisible()).resolves.toBe(false);
      await expect(page.getByLabel(/Email address/).isVisible()).resolves.toBe(true);
    } finally {
      await page.close();
    }
  });

  it.each(WIDTHS)('a monitor’s Alerts fit $width px, with the switched-off destination and its reason in sight', async ({ width }) => {
    const page = await open(width, `/dashboard/monitors/${ids.monitor}`);
    try {
      const section = page.locator('section[aria-labelledby="alerts"]');
      // The widest state of the form: a daily digest shows its time and time zone too.
      await page.getByLabel('How often').selectOption('daily');
      await section.screenshot({ path: `/tmp/monitor-alerts-${width}.png` });
      await page.screenshot({ path: `${SCREENSHOTS}/monitor-alerts-page-${width}.png`, fullPage: true });
      await fits(page, `the monitor's page at ${width} px`);
      await expect(section.locator('.dst-reason').textContent()).resolves.toMatch(/Switched off, so nothing is sent: .*no_service/);
      await expect(page.locator('section[aria-labelledby="health"]').textContent()).resolves.toMatch(/Alerts to\s+#old-campaign\s+are not sent/);
    } finally {
      await page.close();
    }
  });

  it('adds a daily digest in the browser’s own time zone, the time fields shown only for a daily digest', async () => {
    const page = await open(1280, `/dashboard/monitors/${ids.monitor}`);
    try {
      const zone = page.getByLabel(/Time zone/);
      await expect(zone.isVisible()).resolves.toBe(false);
      await page.getByLabel('Send to').selectOption({ label: 'Sales inbox (Email, not confirmed yet)' });
      await page.getByLabel('How often').selectOption('daily');
      await expect(zone.inputValue()).resolves.toBe(ZONE);
      await page.getByLabel(/^At/).fill('07:45');
      await page.getByRole('button', { name: 'Send alerts there' }).click();
      await page.waitForURL(/done=routed/);
      await expect(page.locator('.dst-routes').textContent()).resolves.toContain(`a daily digest at 07:45 (${ZONE} time)`);
    } finally {
      await page.close();
    }
  });
});
