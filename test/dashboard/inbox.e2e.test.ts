import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, WIDTHS, releaseChromium, sharedChromium, loggedInContexts, requireChromium } from '../support/browser.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import type { ConnectedAccount } from '../support/publishing.ts';
import { foundMatches, startInboxApp, type Found, type InboxApp } from './inbox-fixture.ts';

const hasChromium = requireChromium('the Inbox in Chromium');
const PASSWORD = 'correct horse battery';
const EDITED = 'Yes: we run Kysely on PostgreSQL 16 in production. The migration guide covers the\nsharp edges (enums, mostly); happy to share our setup.';

describe.skipIf(!hasChromium).each(engines)('from a new match to a published reply through the Inbox in Chromium on %s', (engine) => {
  let inboxApp: InboxApp;
  let browser: Browser;
  let account: ConnectedAccount;
  let found: Found;
  const contexts = new Map<number, BrowserContext>();

  beforeAll(async () => {
    inboxApp = await startInboxApp(engine);
    account = await inboxApp.app.connectedAccount(100);
    found = await foundMatches(inboxApp, account);
    const { email } = await inboxApp.app.services.db.selectFrom('accounts').select('email').where('id', '=', account.accountId).executeTakeFirstOrThrow();
    browser = await sharedChromium();
    // Logged in through the real form, once per width.
    for (const [width, context] of await loggedInContexts(browser, inboxApp.app.url, email, PASSWORD)) contexts.set(width, context);
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await inboxApp?.app.close();
  });

  /** A screenshot of the page at every width, and that it fits without sideways scrolling. */
  async function shoot(path: string, shot: string) {
    for (const { name, width } of WIDTHS) {
      const page = await contexts.get(width)!.newPage();
      await page.goto(`${inboxApp.app.url}${path}`);
      // Taken before the check, so a page that overflows can be looked at.
      await page.screenshot({ path: `${SCREENSHOTS}/${shot}-${name}-${engine}.png`, fullPage: true });
      const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(size.scrollWidth, `${shot} at ${width} px`).toBeLessThanOrEqual(size.innerWidth);
      await page.close();
    }
  }
  const relative = (url: string) => url.slice(inboxApp.app.url.length);

  it('drafts a reply to a comment, takes an edit, asks for confirmation, and publishes exactly that text under the comment', async () => {
    const page = await contexts.get(1280)!.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${inboxApp.app.url}/dashboard/keys`);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Inbox' }).click();
    await page.waitForURL(`${inboxApp.app.url}/dashboard/inbox`);

    const entry = page.locator(`#${found.comment.matchId}`);
    expect(await entry.getByRole('heading').textContent()).toContain('Comment by u/curious_dev on “Which query builder for Node?”');
    expect(await entry.locator('.badge-new').count()).toBe(1);
    await entry.getByRole('textbox', { name: /^Instructions for this draft/ }).fill('Mention the migration guide.');
    await entry.getByRole('button', { name: 'Draft reply' }).click();
    await page.waitForURL(/\/dashboard\/inbox\?done=drafted&match=mat_[0-9a-f]+#mat_/);
    expect(await page.getByRole('status').textContent()).toContain('The draft is written');
    const reply = entry.getByRole('textbox', { name: /^Your reply/ });
    expect(await reply.inputValue()).toMatch(/^A helpful draft about: /);
    expect(await entry.locator('.badge-drafted').count()).toBe(1);
    await shoot(relative(page.url()).replace(/#.*/, ''), 'inbox-draft');

    // Edited in place, then approved from the keyboard: Tab from the text box reaches the button, with a visible ring.
    await reply.fill(EDITED);
    await reply.focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => ({ text: document.activeElement?.textContent, outline: getComputedStyle(document.activeElement!).outlineStyle }));
    expect(focused).toEqual({ text: 'Approve and publish…', outline: 'solid' });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/drafts\/gen_[0-9a-f]+\/publish\?return_to=%2Fdashboard%2Finbox$/);

    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Publish this reply?');
    expect(await page.locator('.confirm .written-text').innerText()).toBe(EDITED);
    const facts = await page.locator('.confirm .facts').innerText();
    expect(facts).toContain(`A reply to the comment by u/curious_dev (${found.comment.redditId}) on “Which query builder for Node?”, in r/`);
    expect(facts).toContain(`u/${account.username}`);
    expect(facts).toContain('10 credits, charged only once Reddit takes it');
    expect(inboxApp.app.reddit.user.comments.filter((c) => c.author === account.username)).toEqual([]);
    await shoot(relative(page.url()), 'inbox-confirm');

    await page.getByRole('button', { name: 'Confirm and publish' }).click();
    await page.waitForURL(/\/dashboard\/inbox\?done=published&match=mat_[0-9a-f]+#mat_/);
    expect(await page.getByRole('status').textContent()).toBe('Published on Reddit.');
    expect(await entry.locator('.badge-published').count()).toBe(1);
    const link = entry.getByRole('link', { name: 'the reply on Reddit' });
    const publication = (await inboxApp.app.services.inbox.get(account.accountId, found.comment.matchId)).publication!;
    expect(await link.getAttribute('href')).toBe(publication.permalink);
    await shoot(relative(page.url()).replace(/#.*/, ''), 'inbox-published');
    await page.close();

    // The fake Reddit user received exactly the edited text, once, under the comment (a t1_ parent).
    const posted = inboxApp.app.reddit.user.comments.filter((c) => c.author === account.username);
    expect(posted).toEqual([expect.objectContaining({ thing_id: found.comment.redditId, text: EDITED })]);
    // Two matches (1 each), the draft (5) and the publication (10), each written down.
    expect(await account.balance()).toBe(100 - 2 - 5 - 10);
    expect(await ledgerSum(inboxApp.app.services.db, account.accountId)).toBe(await account.balance());
  });

  it('opens and saves the voice for drafts from the keyboard, and shows it back folded', async () => {
    const voice = 'Dry humour, short sentences; I maintain two Kysely plugins and say so when I mention them.';
    for (const { name, width } of WIDTHS) {
      const page = await contexts.get(width)!.newPage();
      page.setDefaultTimeout(5000);
      await page.goto(`${inboxApp.app.url}/dashboard/inbox`);
      await page.locator('.inbox-voice summary').focus();
      await page.keyboard.press('Enter');
      const box = page.getByRole('textbox', { name: /^Voice for drafts/ });
      await box.fill(voice);
      await page.locator('.inbox-voice').screenshot({ path: `${SCREENSHOTS}/inbox-voice-${name}-${engine}.png` });
      await page.getByRole('button', { name: 'Save voice' }).click();
      await page.waitForURL(`${inboxApp.app.url}/dashboard/inbox?done=voice#voice`);
      expect(await page.locator('.inbox-voice summary').innerText()).toBe(`Voice for drafts: “${voice.slice(0, 79)}…”`);
      // Folded again, the saved text is in its (hidden) box.
      expect(await page.locator('textarea[name="voice"]').inputValue()).toBe(voice);
      await page.close();
    }
    expect((await inboxApp.app.services.accountSettings.settings(account.accountId)).voice).toBe(voice);
  });
});
