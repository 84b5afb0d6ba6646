import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { SCREENSHOTS, releaseChromium, requireChromium, sharedChromium } from '../support/browser.ts';
import { uniqueEmail } from '../support/dashboard-client.ts';
import { DEMO_ENV } from '../support/demo.ts';
import type { Engine } from '../support/engines.ts';
import { startFakeSlack, type FakeChat } from '../support/fake-chat-webhooks.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/fake-smtp.ts';
import { cycle, pinnedClock } from '../support/monitors.ts';

const hasChromium = requireChromium('the first hour, from sign-up to a matched alert');
const PASSWORD = 'a long enough password';

/*
 * Issue 44's first hour as one person lives it, in Chromium only: sign up on an instance with no
 * Reddit app (the demo source), follow the mailed link, add a Slack channel, create a monitor, route
 * its alerts there, and see the first match arrive in Slack and in the Inbox. The test does only what
 * the worker does in the background: it sends the mail, runs the poller's cycles and the alert pass, on
 * a pinned clock that the demo's trickle follows. Each engine runs it at one width: SQLite on a laptop, PostgreSQL on
 * a phone, so both widths and both engines are walked without doubling the run.
 */
const RUNS: { engine: Engine; width: number; height: number }[] = [
  { engine: 'sqlite', width: 1280, height: 900 },
  { engine: 'postgres', width: 390, height: 844 },
];

describe.skipIf(!hasChromium).each(RUNS)('the first hour in Chromium on $engine at $width px', ({ engine, width, height }) => {
  let app: TestApp;
  let smtp: FakeSmtp;
  let slack: FakeChat;
  let browser: Browser;
  const clock = pinnedClock();

  beforeAll(async () => {
    [smtp, slack] = await Promise.all([startFakeSmtp(), startFakeSlack()]);
    slack.now = () => clock.now().getTime();
    app = await startTestApp(engine, {
      publicUrl: 'self',
      env: { ...DEMO_ENV, SMTP_URL: smtp.url, MAIL_FROM: 'subpilot <accounts@subpilot.test>' },
      worker: false,
      // A wait (the channel's pace) moves the pinned clock rather than wait for it, which would be forever.
      overrides: { clock: clock.now, sleep: async (ms) => clock.advance(ms / 1000), chat: { bases: { slack: [slack.url], discord: [] }, timeoutMs: 2000 } },
    });
    browser = await sharedChromium();
  }, 60_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await app?.close();
    await Promise.all([smtp?.close(), slack?.close()]);
  });

  /** What the worker does in the background, run here at the moments the test chooses. */
  const background = {
    /** The mail jobs the forms queued. */
    async sendMails() {
      const rows = await app.database.db.selectFrom('account_tokens').select('id').where('mailed_at', 'is', null).execute();
      for (const { id } of rows) await app.services.accountLinks.mail(id);
    },
    /** The alert pass, then each of the account's destinations drained. */
    async alert(email: string) {
      await app.services.alerts.sendDue();
      const { id } = await app.services.accounts.requireByEmail(email);
      for (const destination of (await app.services.destinations.list(id)).data) await app.services.destinations.drain(destination.id);
    },
  };
  const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/first-hour-${name}-${width}.png`, fullPage: true });

  it('signs up, routes a monitor to Slack and sees its first match there and in the Inbox, without a line of code', { timeout: 90_000 }, async () => {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const email = uniqueEmail(`first-hour-${width}`);
    try {
      await page.goto(`${app.url}/dashboard/signup`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect.poll(() => page.title()).toBe('Check your inbox');
      await background.sendMails();
      const mail = smtp.mails.find((m) => m.envelope.to.includes(email) && m.subject === 'Confirm your address to open your subpilot account')!;
      await page.goto(new RegExp(`${app.url}/dashboard/signup/confirm/[A-Za-z0-9_-]{43}`).exec(mail.text)![0]);
      await page.getByRole('button', { name: 'Confirm and open my account' }).click();
      await page.waitForURL(`${app.url}/dashboard/keys?welcome=1`);
      // The instance has no Reddit app: every page says the data is the demo's.
      expect(await page.locator('.demo-banner').textContent()).toContain('Demo data — not real Reddit.');
      await shot(page, 'welcome');

      // A Slack channel, pasted as its incoming webhook's URL.
      await page.getByRole('link', { name: 'Destinations', exact: true }).first().click();
      await page.getByLabel('Kind').selectOption('slack');
      await page.getByLabel(/^Name/).fill('#leads');
      const webhook = slack.newWebhook();
      await page.getByLabel(/Webhook URL/).fill(webhook);
      await page.getByRole('button', { name: 'Add destination' }).click();
      await page.waitForURL(/\/dashboard\/destinations\?added=/);
      await shot(page, 'destination');

      // A monitor on two of the demo's subreddits, as the form's hint shows them typed.
      await page.getByRole('link', { name: 'Monitors', exact: true }).first().click();
      await page.locator('form.mon-form [name="name"]').fill('Kysely mentions');
      await page.locator('form.mon-form [name="subreddits"]').fill('typescript, node');
      await page.locator('form.mon-form [name="keywords"]').fill('kysely');
      await page.getByRole('checkbox', { name: /Comments/ }).check();
      await page.getByRole('button', { name: 'Create monitor' }).click();
      await page.waitForURL(/\/dashboard\/monitors\/mon_[^/?]+\?done=created$/);
      const monitorId = /monitors\/(mon_[^?]+)/.exec(page.url())![1]!;

      // Its alerts, at once, to the channel just added.
      await page.getByLabel('Send to').selectOption({ label: '#leads (Slack)' });
      await page.getByLabel('How often').selectOption('instant');
      await page.getByRole('button', { name: 'Send alerts there' }).click();
      await page.waitForURL(/done=routed/);
      await shot(page, 'routed');

      // The server's background work: the poller reads the demo's trickle as time passes, the alert pass sends.
      await cycle(app);
      clock.advance(120);
      await cycle(app);
      await background.alert(email);

      // The first alert (the channel's pace lets one through per second of the pinned clock).
      const [first] = slack.accepted(webhook) as { text: string }[];
      expect(first?.text).toMatch(/kysely/i);
      const link = new RegExp(`<(${app.url}/dashboard/inbox\\?monitor=${monitorId}#([^|>]+))\\|Open in the Inbox>`).exec(first!.text);
      expect(link, first!.text).not.toBeNull();

      // Its link leads to the match in the Inbox, where every match is labelled as the demo's.
      await page.goto(link![1]!);
      await expect.poll(() => page.locator(`[id="${link![2]}"]`).count()).toBe(1);
      const stored = await app.database.db.selectFrom('monitor_matches').select('id').where('monitor_id', '=', monitorId).execute();
      expect(await page.locator('.badge-demo').count()).toBe(stored.length);
      await shot(page, 'inbox');
    } finally {
      await context.close();
    }
  });
});
