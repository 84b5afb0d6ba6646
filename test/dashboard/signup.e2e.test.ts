import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { SCREENSHOTS, WIDTHS, releaseChromium, requireChromium, sharedChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/fake-smtp.ts';
import { ledgerSum } from '../support/ledger.ts';

const hasChromium = requireChromium('sign-up and password reset by mail');
const PASSWORD = 'a long enough password';
const NEW_PASSWORD = 'another long password';

/*
 * Sign-up to a signed-in dashboard, and "Forgot password?", as a person does them in Chromium, on a
 * server that sends mail: the links are read from the mails a real SMTP server received, and the
 * worker sends them as it does in production. Each page is looked at 1280 and 390 px wide.
 */
describe.skipIf(!hasChromium).each(engines)('sign-up and password reset by mail in Chromium on %s', (engine) => {
  let app: TestApp;
  let smtp: FakeSmtp;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    app = await startTestApp(engine, { publicUrl: 'self', env: { SMTP_URL: smtp.url, MAIL_FROM: 'subpilot <accounts@subpilot.test>', SIGNUP_CREDITS: '5' } });
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
    await smtp?.close();
  });

  /** The link of the newest mail to `address` with this subject, once the worker has sent it. */
  async function linkFrom(address: string, subject: string, path: string): Promise<string> {
    await expect.poll(() => smtp.mails.filter((mail) => mail.envelope.to.includes(address) && mail.subject === subject).length).toBeGreaterThan(0);
    const mail = smtp.mails.filter((m) => m.envelope.to.includes(address) && m.subject === subject).at(-1)!;
    return new RegExp(`${app.url}${path}[A-Za-z0-9_-]{43}`).exec(mail.text)![0];
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}-${engine}-${page.viewportSize()!.width}.png`, fullPage: true });

  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: sign up, follow the mailed link, land signed in on the Keys page with the trial credits; then reset the password by mail`, async () => {
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      const email = uniqueEmail(`e2e${width}`);

      await page.goto(`${app.url}/dashboard/login`);
      await shot(page, 'login');
      await page.getByRole('link', { name: 'Sign up' }).click();
      expect(await page.locator('form').textContent()).toContain('A new account starts with 5 credits to try the API.');
      await shot(page, 'signup');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect.poll(() => page.title()).toBe('Check your inbox');
      expect(await page.getByRole('status').textContent()).toContain(`We sent a mail to ${email}.`);
      await shot(page, 'signup-check-inbox');

      await page.goto(await linkFrom(email, 'Confirm your address to open your subpilot account', '/dashboard/signup/confirm/'));
      expect(await page.getByLabel('Password').count()).toBe(0);
      await shot(page, 'signup-confirm');
      await page.getByRole('button', { name: 'Confirm and open my account' }).click();
      await page.waitForURL(`${app.url}/dashboard/keys?welcome=1`);
      expect(await page.getByRole('status').textContent()).toContain('It has 5 credits to try the API');
      expect(await page.locator('.email').textContent()).toBe(email);
      await shot(page, 'signup-welcome');
      const { id } = await app.services.accounts.requireByEmail(email);
      expect(await ledgerSum(app.database.db, id)).toBe(5);

      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await shot(page, 'password-reset');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Mail me a link' }).click();
      await expect.poll(() => page.title()).toBe('Check your inbox');
      await shot(page, 'password-reset-sent');
      const resetLink = await linkFrom(email, 'Set a new subpilot password', '/dashboard/password-reset/');
      await page.goto(resetLink);
      await shot(page, 'password-reset-new');
      await page.getByLabel('New password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Set the password' }).click();
      await page.waitForURL(`${app.url}/dashboard/keys?password=1`);
      expect(await page.getByRole('status').textContent()).toContain('Your new password is set');
      expect((await page.goto(resetLink))!.status()).toBe(410);
      await shot(page, 'password-reset-used');
      await page.goto(`${app.url}/dashboard/keys`);

      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(`${app.url}/dashboard/keys`);
      await context.close();
    });
  }

  it('a sign-up link opened in another browser asks for the password chosen at sign-up', async () => {
    const email = uniqueEmail('elsewhere');
    const signingUp = await browser.newContext();
    const page = await signingUp.newPage();
    await page.goto(`${app.url}/dashboard/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.title()).toBe('Check your inbox');
    const link = await linkFrom(email, 'Confirm your address to open your subpilot account', '/dashboard/signup/confirm/');

    for (const { width, height } of WIDTHS) {
      const phone = await (await browser.newContext({ viewport: { width, height } })).newPage();
      await phone.goto(link);
      expect(await phone.locator('form').textContent()).toContain('This is not the browser that signed up');
      await shot(phone, 'signup-confirm-elsewhere');
    }
    const other = await (await browser.newContext()).newPage();
    await other.goto(link);
    await other.getByLabel('Password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Confirm and open my account' }).click();
    await other.waitForURL(`${app.url}/dashboard/keys?welcome=1`);
  });
});
