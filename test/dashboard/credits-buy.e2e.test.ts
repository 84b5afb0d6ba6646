import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, logIn, requireChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { startBillingApp } from '../support/billing.ts';
import type { FakeStripe } from '../support/fake-stripe.ts';

const PASSWORD = 'correct horse battery';
const hasChromium = requireChromium('buying credits');

/** Layout does not depend on the database engine, so one (SQLite) is enough. */
describe.skipIf(!hasChromium)('buying credits through Stripe Checkout, and auto top-up, in Chromium at 1280 and 390 px', () => {
  let app: TestApp;
  let stripe: FakeStripe;
  let browser: Browser;

  beforeAll(async () => {
    // PUBLIC_URL is the app itself, so Checkout's success URL brings the browser back to it. A scrape of one pair costs 100.
    ({ app, stripe } = await startBillingApp('sqlite', { publicUrl: 'self', env: { PRICE_SCRAPE: '100' } }));
    app.reddit.posts.push({ id: 'cb1', subreddit: 'node', title: 'Which node version?', created_utc: Math.floor(Date.now() / 1000) });
    browser = await sharedChromium();
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
    await stripe?.close();
  });

  /** A signed-in page at `width` whose console errors (CSP refusals among them) and script errors are collected. */
  async function signedIn(width: number, height: number) {
    const email = uniqueEmail('buyer-with-a-long-address');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('console', (message) => {
      // Chromium asks every origin for /favicon.ico, which neither the dashboard nor the fake serves.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    await logIn(page, app.url, email, PASSWORD);
    return { page, accountId: account.id, problems, close: () => context.close() };
  }

  /** Screenshot, then check nothing makes the page scroll sideways. */
  async function look(page: Page, name: string, width: number) {
    await page.screenshot({ path: `${SCREENSHOTS}/credits-buy-${name}-${width}.png`, fullPage: true });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `${name} at ${width} px`).toBeLessThanOrEqual(width);
  }

  /** On Stripe's (fake) checkout page: pay with the card that succeeds, and follow the redirect back to the app. */
  async function payAtCheckout(page: Page) {
    await page.waitForURL(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(new RegExp(`^${app.url}/dashboard/credits/return\\?payment=pay_`));
  }

  it.each(WIDTHS)('at $width px: Credits → Buy 2000 → Stripe’s checkout → Pay → back, and once the webhook lands the page shows the balance', async ({ width, height }) => {
    const { page, problems, close } = await signedIn(width, height);
    try {
      await page.getByRole('link', { name: 'Credits' }).click();
      await expect.poll(() => page.locator('.pack').count()).toBe(2);
      await look(page, 'credits', width);

      // Held back, so the return page is seen before the webhook lands; then delivered, as Stripe would.
      stripe.webhookUrl = null;
      const from = stripe.events.length;
      await page.getByRole('button', { name: 'Buy 2000 credits for 18.00 USD' }).click();
      await payAtCheckout(page);
      await expect.poll(() => page.getByRole('status').textContent()).toBe('Payment received — your credits appear in a moment.');
      await look(page, 'return-waiting', width);

      stripe.webhookUrl = `${app.url}/webhooks/stripe`;
      for (const event of stripe.events.slice(from)) expect((await stripe.deliver(event)).status).toBe(200);
      // The page reloads itself every 2 s until the credits are in.
      await expect.poll(() => page.getByRole('status').textContent(), { timeout: 10_000 }).toBe('2000 credits added. Balance: 2000 credits.');
      await look(page, 'return-credited', width);

      await page.getByRole('link', { name: 'Back to Credits' }).click();
      expect(await page.locator('.balance').textContent()).toBe('Balance: 2000 credits');
      const purchase = page.getByRole('row').filter({ hasText: 'Purchase for 18.00 USD' });
      expect(await purchase.count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  /** Below 30 credits buy the 500 pack, twice a month at most: saved, paid at the checkout (which saves the card), and on once the webhook lands. */
  async function setUpAutoTopup(page: Page, accountId: string) {
    await page.goto(`${app.url}/dashboard/credits`);
    await page.getByLabel('Balance threshold (credits)').fill('30');
    await page.getByLabel('Pack to buy').selectOption('500');
    await page.getByLabel('At most (top-ups a month)').fill('2');
    await page.getByRole('button', { name: 'Save and add a card' }).click();
    await payAtCheckout(page);
    await expect.poll(async () => (await app.services.billing.autoTopup.settings(accountId))?.enabled, { timeout: 10_000 }).toBe(true);
  }

  /** The saved card starts to decline, and a scrape takes the balance below the threshold: the top-up fails and switches auto top-up off. */
  async function declinedAtNextCrossing(accountId: string) {
    const card = (await app.services.db.selectFrom('auto_topups').select('payment_method_id').where('account_id', '=', accountId).executeTakeFirstOrThrow()).payment_method_id!;
    stripe.savedCardBehaviour(card, 'declined');
    const { token } = await app.services.keys.createKey(accountId, "after the card's decline");
    const { balance } = await app.services.credits.standing(accountId);
    for (let spent = 0; balance - spent >= 30; spent += 100) await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['node'] } });
    await expect.poll(async () => (await app.services.billing.autoTopup.settings(accountId))?.lastFailure ?? null, { timeout: 15_000 }).not.toBeNull();
  }

  /** The Credits page after a declined card: off, why, and a banner; then back on with a new card. */
  async function lookAtFailure(page: Page, accountId: string, width: number) {
    await declinedAtNextCrossing(accountId);
    await page.goto(`${app.url}/dashboard/credits`);
    expect(await page.locator('.topup-failed').textContent()).toContain('Auto top-up failed and switched itself off');
    expect(await page.locator('#auto-topup').locator('..').textContent()).toContain('will not charge that card again');
    expect(await page.getByRole('button', { name: 'Save and replace the card' }).count()).toBe(1);
    await look(page, 'auto-topup-failed', width);
  }

  it('auto top-up: saving it goes to Stripe to buy the pack and save the card; scrapes that cross the threshold fire exactly one top-up', async () => {
    const { page, accountId, problems, close } = await signedIn(1280, 900);
    try {
      await setUpAutoTopup(page, accountId);
      await expect.poll(() => page.getByRole('status').textContent(), { timeout: 10_000 }).toBe('500 credits added. Balance: 500 credits.');

      const { token } = await app.services.keys.createKey(accountId, 'scraper');
      for (let spent = 0; spent < 500; spent += 100) {
        const scrape = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['node'] } });
        expect(scrape.status).toBeLessThan(300);
      }
      const topups = async () => (await app.services.credits.usage(accountId, { limit: 20 })).data.filter((entry) => entry.payment?.source === 'topup');
      await expect.poll(async () => (await topups()).length, { timeout: 15_000 }).toBe(1);
      // A pass or two more, which must not buy again: the balance is back above the threshold.
      await app.services.billing.autoTopup.flush();
      await app.services.billing.autoTopup.flush();
      const offSession = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.body.off_session === 'true');
      expect(offSession).toHaveLength(1);
      expect(await topups()).toHaveLength(1);
      expect(await app.services.credits.standing(accountId)).toEqual({ balance: 500, owed: 0 });

      await page.goto(`${app.url}/dashboard/credits`);
      expect(await page.locator('.balance').textContent()).toBe('Balance: 500 credits');
      expect(await page.getByRole('row').filter({ hasText: 'Auto top-up for 5.00 USD' }).count()).toBe(1);
      expect(await page.locator('#auto-topup').locator('..').textContent()).toMatch(/On: when the balance you can spend falls below 30 credits[\s\S]*This month: 1 of 2 top-ups/);
      await look(page, 'auto-topup', 1280);
      await lookAtFailure(page, accountId, 1280);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the Credits page with auto top-up on fits 390 px', async () => {
    const { page, accountId, problems, close } = await signedIn(390, 844);
    try {
      await setUpAutoTopup(page, accountId);
      await page.goto(`${app.url}/dashboard/credits`);
      expect(await page.getByText('Turn off auto top-up').count()).toBe(1);
      await look(page, 'auto-topup', 390);
      await lookAtFailure(page, accountId, 390);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
