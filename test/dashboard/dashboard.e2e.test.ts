import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { SCREENSHOTS, releaseChromium, sharedChromium, requireChromium } from '../support/browser.ts';
import { engines } from '../support/engines.ts';

const hasChromium = requireChromium('dashboard end-to-end');

describe.skipIf(!hasChromium).each(engines)('dashboard end-to-end in Chromium on %s', (engine) => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.posts.push({
      id: 'e2e1',
      subreddit: 'automation',
      title: 'How I wired n8n to Reddit',
      selftext: 'a workflow that watches keywords',
      created_utc: 1_700_000_000,
    });
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  it('sign up, create a key, spend with it, see the charge, revoke it, and never see the token again', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const email = `e2e-${engine}-${Date.now()}@example.com`;

    await page.goto(`${app.url}/`);
    await expect.poll(() => page.url()).toBe(`${app.url}/dashboard/login`);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    // Without mail to confirm the address, sign-up signs the new account in at once: no password typed again.
    await page.waitForURL(`${app.url}/dashboard/keys?welcome=1`);
    expect(await page.title()).toBe('API keys');
    expect(await page.getByRole('status').textContent()).toContain('Welcome: your account is ready.');
    await page.screenshot({ path: `${SCREENSHOTS}/signed-up-${engine}.png`, fullPage: true });
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API keys');

    await page.getByLabel('Name').fill('n8n');
    await page.getByRole('button', { name: 'Create key' }).click();
    const tokenLocator = page.locator('#new-token');
    const token = (await tokenLocator.textContent())!.trim();
    expect(token).toMatch(/^ak_live_[0-9a-f]{64}$/);
    expect(await page.getByText('it will not be shown again').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/api-keys-created-${engine}.png`, fullPage: true, mask: [tokenLocator] });

    const { id: accountId } = await app.services.accounts.requireByEmail(email);
    await app.services.credits.grant(accountId, 10, 'e2e');
    const scrape = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/automation'], keywords: ['n8n'] } });
    expect(scrape.status).toBe(200);
    expect((await scrape.json()).results).toHaveLength(1);

    await page.getByRole('link', { name: 'Credits' }).click();
    await page.waitForURL(`${app.url}/dashboard/credits`);
    expect(await page.locator('.balance').textContent()).toContain('9');
    const charge = page.locator('tbody tr').first();
    expect(await charge.textContent()).toMatch(/charge\s+-1\s+9\s+n8n ak_live_[0-9a-f]{8}…/);

    await page.getByRole('link', { name: 'Scrapes' }).click();
    await page.getByRole('link', { name: 'Results' }).first().click();
    const post = page.getByRole('link', { name: 'How I wired n8n to Reddit' });
    expect(await post.getAttribute('rel')).toBe('noopener noreferrer');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`${app.url}/dashboard/keys`);
    expect(await page.content()).not.toContain(token);
    await page.screenshot({ path: `${SCREENSHOTS}/api-keys-before-revoke-${engine}.png`, fullPage: true });

    await page.getByRole('row', { name: /n8n/ }).getByRole('link', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL(/\/dashboard\/keys\?revoked=1$/);
    expect((await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/automation'], keywords: ['n8n'] } })).status).toBe(401);

    await page.reload();
    const row = page.getByRole('row', { name: /n8n/ });
    expect(await row.textContent()).toContain('revoked');
    expect(await row.getByRole('link', { name: 'Revoke' }).count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    expect(await page.content()).not.toContain(token.slice(16));
    for (const cookie of await context.cookies()) expect(cookie.value).not.toContain(token.slice(8));
    await page.screenshot({ path: `${SCREENSHOTS}/api-keys-after-revoke-${engine}.png`, fullPage: true });
    await context.close();
  });
});
