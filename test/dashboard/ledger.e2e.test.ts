import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, requireChromium } from '../support/browser.ts';
import { startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';

/** Layout does not depend on the database engine, so one (SQLite) is enough. */
const hasChromium = requireChromium('ledger, drafts and publications pages');

describe.skipIf(!hasChromium)('the Credits, Drafts and Publications pages at 1280 and 390 px in Chromium', () => {
  let app: PublishingApp;
  let account: ConnectedAccount;
  let browser: Browser;
  const ids = { draft: '', publication: '' };

  beforeAll(async () => {
    app = await startPublishingApp('sqlite');
    app.reddit.posts.push({ id: 'shot1', subreddit: 'selfhosted', title: 'Which dashboard do you run?', created_utc: Math.floor(Date.now() / 1000) });
    app.reddit.posts.push({ id: 'shot2', subreddit: 'grafana', title: 'Show your dashboards', created_utc: Math.floor(Date.now() / 1000) });
    app.reddit.subreddits.set('homelabsecret', 'private');
    account = await app.connectedAccount(100, { username: 'screenshotter' });
    const api = async (path: string, body: unknown) => (await app.api('POST', path, { token: account.token, body })).json();
    await api('/api/v1/scrape', { subreddits: ['r/selfhosted', 'r/homelabsecret'], keywords: ['dashboard'] });
    app.llm.reply = () => 'I run Grafana for metrics and a small static page for links.\n\nHappy to share the config if it helps.';
    ids.draft = (await api('/api/v1/generate', { type: 'reply', post_id: 't3_shot1', instructions: 'Recommend Grafana, briefly' })).id;
    app.llm.failNext(500);
    await api('/api/v1/generate', { type: 'reply', post_id: 't3_shot1', instructions: 'Again' });
    ids.publication = (await api('/api/v1/publish', { generation_id: ids.draft })).id;
    app.reddit.user.rejectNext('THREAD_LOCKED', 'that thread is locked', 'parent');
    // In another thread and subreddit than the draft's, so that the refusal is Reddit's, not a rail's.
    await api('/api/v1/publish', { type: 'comment', parent: 't3_shot2', body: 'Grafana.' });
    browser = await sharedChromium();
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
  });

  const pages = () => [
    ['credits', '/dashboard/credits'],
    ['drafts', '/dashboard/drafts'],
    ['draft', `/dashboard/drafts/${ids.draft}`],
    ['publications', '/dashboard/publications'],
    ['publication', `/dashboard/publications/${ids.publication}`],
  ];

  it.each(WIDTHS)('each page fits $width px without sideways scrolling (tables scroll in their box)', async ({ width, height }) => {
    const context = await browser.newContext({ viewport: { width, height } });
    await context.addCookies(
      [...account.dashboard.cookies].map(([name, value]) => ({ name, value, url: app.url })),
    );
    const page = await context.newPage();
    try {
      for (const [name, path] of pages()) {
        const response = await page.goto(`${app.url}${path}`);
        expect(response!.status(), path).toBe(200);
        await page.screenshot({ path: `${SCREENSHOTS}/ledger-${name}-${width}.png`, fullPage: true });
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(wide, `${name} at ${width} px`).toBeLessThanOrEqual(width);
      }
    } finally {
      await context.close();
    }
  });
});
