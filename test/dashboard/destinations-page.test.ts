import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { startFakeDiscord, startFakeSlack, type FakeChat } from '../support/fake-chat-webhooks.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/fake-smtp.ts';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.ts';
import { SECRET_KEY_HEX } from '../support/publishing.ts';

const PASSWORD = 'correct horse battery';

/*
 * The Destinations page and a monitor's Alerts, as a person uses them: forms posted with the page's
 * CSRF token, against the fake Slack, Discord, SMTP server and Telegram Bot API. No worker: the outbox
 * is drained and the bot's updates read by the test, as the worker would.
 */
describe.each(engines)('the dashboard Destinations page on %s', (engine) => {
  let app: TestApp;
  let slack: FakeChat;
  let discord: FakeChat;
  let smtp: FakeSmtp;
  let telegram: FakeTelegram;

  beforeAll(async () => {
    [slack, discord, smtp, telegram] = await Promise.all([startFakeSlack(), startFakeDiscord(), startFakeSmtp(), startFakeTelegram()]);
    app = await startTestApp(engine, {
      worker: false,
      env: {
        SECRET_KEY: SECRET_KEY_HEX,
        PUBLIC_URL: 'https://app.subpilot.test',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'subpilot alerts <alerts@subpilot.test>',
        TELEGRAM_BOT_TOKEN: telegram.token,
        TELEGRAM_API_URL: telegram.url,
      },
      overrides: { chat: { bases: { slack: [slack.url], discord: [discord.url] } } },
    });
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([slack?.close(), discord?.close(), smtp?.close(), telegram?.close()]);
  });

  async function member() {
    const email = uniqueEmail('destinations');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
    return { browser, accountId: account.id };
  }
  const add = (browser: DashboardClient, fields: Record<string, string>) => browser.submit('/dashboard/destinations', '/dashboard/destinations', fields);
  /** Adds one and follows the redirect to the list that announces it. */
  async function added(browser: DashboardClient, fields: Record<string, string>) {
    const answer = await add(browser, fields);
    expect(answer.status, answer.body).toBe(303);
    const id = new URL(answer.location!, app.url).searchParams.get('added')!;
    return { id, page: (await browser.get(answer.location!)).body };
  }
  const monitorOf = (accountId: string) =>
    app.services.monitors.create(accountId, { name: 'CRM questions', subreddits: ['r/sales'], keywords: ['crm'] }, { via: 'dashboard' });

  it('adds a Slack and a Discord webhook, each active at once and listed only by the end of its URL', async () => {
    const { browser } = await member();
    for (const [kind, fake] of [['slack', slack], ['discord', discord]] as const) {
      const url = fake.newWebhook();
      const { page } = await added(browser, { kind, name: `#leads on ${kind}`, url });
      expect(page).toContain(`“#leads on ${kind}” was added and is active. Send it a test to see a message arrive.`);
      expect(page).toContain(`<code>…/${url.slice(-4)}</code>`);
      expect(page).not.toContain(url);
    }
    const list = (await browser.get('/dashboard/destinations')).body;
    expect(list.match(/<span class="badge badge-active">active<\/span>/g)).toHaveLength(2);
    expect(list).toContain('<td data-label="Kind">Discord</td>');
  });

  it('adds an email address, mails it a link, and says alerts start once it is confirmed', async () => {
    const { browser } = await member();
    const address = `${uniqueEmail('inbox')}`;
    const { id, page } = await added(browser, { kind: 'email', name: 'Sales inbox', address });
    expect(page).toContain(`We mailed a link to ${address}; alerts start once it is confirmed.`);
    expect(page).toContain('not confirmed yet');
    await app.services.destinations.drain(id);
    expect(smtp.mails.filter((mail) => mail.envelope.to.includes(address)).map((mail) => mail.subject)).toEqual(['Confirm your address for subpilot alerts']);
  });

  it('adds a Telegram chat with its link as an “Open in Telegram” button and as text to copy, and lists the chat once Start is pressed', async () => {
    const { browser } = await member();
    const { id, page } = await added(browser, { kind: 'telegram', name: 'Team chat', url: 'left over from Slack' });
    const link = new RegExp(`https://t\\.me/${telegram.username}\\?start=[A-Za-z0-9_-]+`).exec(page)![0];
    expect(page).toContain(`<a class="button" href="${link}" rel="noopener noreferrer">Open in Telegram</a>`);
    expect(page).toContain(`<code id="link-text-${id}" class="token">${link}</code>`);
    expect(page).toContain('Open the link on the phone or computer where Telegram is installed.');
    expect(page).toContain('press <strong>Start</strong>');
    expect(page).toContain('add the bot to the group first, then open the link from that group');
    telegram.userSends('5150', `/start ${new URL(link).searchParams.get('start')}`, { title: 'Jane' });
    expect(await app.services.telegramLinking!.pollOnce(0)).toBe(1);
    const list = (await browser.get('/dashboard/destinations')).body;
    expect(list).toContain('<td class="dst-where" data-label="Goes to"><bdi>Jane</bdi></td>');
    expect(list).not.toContain('Open in Telegram');
  });

  it('refuses what cannot be sent in words beside the form, keeping what was typed', async () => {
    const { browser, accountId } = await member();
    const wrongUrl = await add(browser, { kind: 'slack', name: '#leads', url: 'https://example.com/services/T1/B1/x' });
    expect(wrongUrl.status).toBe(422);
    expect(wrongUrl.body).toContain('The webhook URL must be a Slack incoming-webhook URL, https://hooks.slack.com/services/T…/B…/…');
    expect(wrongUrl.body).toContain('value="https://example.com/services/T1/B1/x" maxlength="500" placeholder="https://hooks.slack.com/services/…" aria-invalid="true"');
    expect(wrongUrl.body).toContain('value="#leads"');

    const wrongAddress = await add(browser, { kind: 'email', name: 'Sales', address: 'sales at example.com' });
    expect(wrongAddress.status).toBe(422);
    expect(wrongAddress.body).toContain('“sales at example.com” is not an email address.');
    expect(wrongAddress.body).toContain('<option value="email" selected>Email</option>');

    const noName = await add(browser, { kind: 'discord', name: '  ', url: discord.newWebhook() });
    expect(noName.body).toContain('Give the destination a name to tell it by');
    expect((await app.services.destinations.list(accountId)).data).toEqual([]);
  });

  it('sends a test: the message is queued, then listed on the destination’s page with the service’s answer', async () => {
    const { browser } = await member();
    const url = slack.newWebhook();
    const { id } = await added(browser, { kind: 'slack', name: '#tests', url });
    const list = (await browser.get('/dashboard/destinations')).body;
    expect(list).toContain(`action="/dashboard/destinations/${id}/test"`);
    const sent = await browser.submit('/dashboard/destinations', `/dashboard/destinations/${id}/test`, {});
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`/dashboard/destinations/${id}?done=tested`);
    const queued = (await browser.get(sent.location!)).body;
    expect(queued).toContain('The test message was queued');
    expect(queued).toContain('<td data-label="Message">Test message</td>');
    expect(queued).toContain('not tried yet');
    await app.services.destinations.drain(id);
    expect(slack.accepted(url)).toHaveLength(1);
    const page = (await browser.get(`/dashboard/destinations/${id}`)).body;
    expect(page).toMatch(/— 200, \d+ ms<br><code class="wrap-anywhere dst-answer">ok<\/code>/);
    expect(page).toContain('<span class="badge badge-active">sent</span>');
  });

  it('deletes a destination after a step that asks to confirm it', async () => {
    const { browser, accountId } = await member();
    const { id } = await added(browser, { kind: 'discord', name: 'Old channel', url: discord.newWebhook() });
    const confirm = await browser.get(`/dashboard/destinations/${id}/delete`);
    expect(confirm.body).toContain('Delete the destination <strong><bdi>Old channel</bdi></strong> (Discord)?');
    const deleted = await browser.submit(`/dashboard/destinations/${id}/delete`, `/dashboard/destinations/${id}/delete`, {});
    expect(deleted.location).toBe('/dashboard/destinations?done=deleted');
    expect((await browser.get(deleted.location!)).body).toContain('The destination was deleted');
    expect((await app.services.destinations.list(accountId)).data).toEqual([]);
  });

  it('shows another account’s destination as the 404 page, and refuses to test or delete it', async () => {
    const owner = await member();
    const { id } = await added(owner.browser, { kind: 'slack', name: '#private', url: slack.newWebhook() });
    const stranger = await member();
    expect((await stranger.browser.get(`/dashboard/destinations/${id}`)).status).toBe(404);
    expect((await stranger.browser.submit('/dashboard/destinations', `/dashboard/destinations/${id}/test`, {})).status).toBe(404);
    expect((await stranger.browser.submit('/dashboard/destinations', `/dashboard/destinations/${id}/delete`, {})).status).toBe(404);
    expect((await app.services.destinations.list(owner.accountId)).data).toHaveLength(1);
  });

  it('sends a monitor’s matches to a destination as a daily digest from its page, and stops them', async () => {
    const { browser, accountId } = await member();
    const monitor = await monitorOf(accountId);
    const { id } = await added(browser, { kind: 'slack', name: '#digest', url: slack.newWebhook() });
    const path = `/dashboard/monitors/${monitor.id}`;
    expect((await browser.get(path)).body).toContain('No alerts yet');

    const zone = await browser.submit(path, `${path}/alerts`, { destination_id: id, frequency: 'daily', at: '08:30', time_zone: 'Mars/Olympus_Mons' });
    expect(zone.status).toBe(422);
    expect(zone.body).toContain('That time zone is not one this server knows; use a name such as Europe/Berlin');
    expect(zone.body).toContain('value="Mars/Olympus_Mons"');
    expect(zone.body).toContain('<option value="daily" selected>');

    const routed = await browser.submit(path, `${path}/alerts`, { destination_id: id, frequency: 'daily', at: '08:30', time_zone: 'Europe/Berlin' });
    expect(routed.location).toBe(`${path}?done=routed#alerts`);
    const page = (await browser.get(routed.location!.split('#')[0]!)).body;
    expect(page).toContain('Saved: new matches of this monitor go to that destination from now on.');
    expect(page).toContain('a daily digest at 08:30 <span class="muted">(<bdi>Europe/Berlin</bdi> time)</span>');
    expect((await app.services.alerts.list(accountId, monitor.id)).data).toMatchObject([{ destination_id: id, frequency: 'daily', at: '08:30', time_zone: 'Europe/Berlin' }]);

    // An instant route takes no time: the leftover time and zone of the form are not sent.
    const instant = await browser.submit(path, `${path}/alerts`, { destination_id: id, frequency: 'instant', at: '08:30', time_zone: 'Europe/Berlin' });
    expect(instant.status).toBe(303);
    expect((await browser.get(path)).body).toContain('each match, as it is found');

    const stopped = await browser.submit(path, `${path}/alerts/${id}/stop`, {});
    expect(stopped.location).toBe(`${path}?done=unrouted#alerts`);
    expect((await browser.get(path)).body).toContain('No alerts yet');
    expect((await app.services.alerts.list(accountId, monitor.id)).data).toEqual([]);
  });

  it('shows a switched-off destination with its reason on the list, in the monitor’s alerts and health, and a new URL switches it back on', async () => {
    const { browser, accountId } = await member();
    const monitor = await monitorOf(accountId);
    const url = slack.newWebhook();
    const { id } = await added(browser, { kind: 'slack', name: '#gone', url });
    await app.services.alerts.route(accountId, monitor.id, id, { frequency: 'instant' });
    slack.remove(url);
    await app.services.destinations.sendTest(accountId, id);
    await app.services.destinations.drain(id);

    const list = (await browser.get('/dashboard/destinations')).body;
    expect(list).toMatch(/<span class="badge badge-off">off<\/span> <span class="dst-reason">Nothing is sent to it: <bdi>[^<]*no_service[^<]*<\/bdi>/);
    expect(list).not.toContain(`action="/dashboard/destinations/${id}/test"`);
    const monitorPage = (await browser.get(`/dashboard/monitors/${monitor.id}`)).body;
    expect(monitorPage).toMatch(/Switched off, so nothing is sent: <bdi>[^<]*no_service/);
    expect(monitorPage).toMatch(/Alerts to <a href="\/dashboard\/destinations\/[^"]+"><bdi>#gone<\/bdi><\/a>\s+are not sent: it was switched off/);

    const own = (await browser.get(`/dashboard/destinations/${id}`)).body;
    expect(own).toContain('Switch it back on with a new webhook URL');
    const fresh = slack.newWebhook();
    const saved = await browser.submit(`/dashboard/destinations/${id}`, `/dashboard/destinations/${id}/url`, { url: fresh });
    expect(saved.location).toBe(`/dashboard/destinations/${id}?done=url`);
    expect((await app.services.destinations.get(accountId, id)).status).toBe('active');
  });
});

describe.each(engines)('the Destinations page on a server without some channels, on %s', (engine) => {
  it('offers only the kinds this server can send, and says why the others are missing', async () => {
    const app = await startTestApp(engine, { worker: false, env: { SECRET_KEY: SECRET_KEY_HEX } });
    try {
      const email = uniqueEmail('no-channels');
      await app.services.accounts.createAccount(email, PASSWORD);
      const browser = new DashboardClient(app.url);
      await browser.logIn(email, PASSWORD);
      const page = (await browser.get('/dashboard/destinations')).body;
      expect(page).toContain('<option value="slack" selected>Slack</option>');
      expect(page).not.toContain('<option value="email"');
      expect(page).not.toContain('<option value="telegram"');
      expect(page).toContain('Email is not available on this server: its operator has not set up sending mail');
      expect(page).toContain('Telegram is not available on this server: its operator has not set up a Telegram bot');
      // A post for a kind the form does not offer is refused beside it, in the usecases' words.
      const forged = await browser.submit('/dashboard/destinations', '/dashboard/destinations', { kind: 'telegram', name: 'Team' });
      expect(forged.status).toBe(503);
      expect(forged.body).toContain('Telegram destinations are not configured on this server');
    } finally {
      await app.close();
    }
  });

  it('says destinations are off without SECRET_KEY instead of offering a form that would fail', async () => {
    const app = await startTestApp(engine, { worker: false });
    try {
      const email = uniqueEmail('no-key');
      await app.services.accounts.createAccount(email, PASSWORD);
      const browser = new DashboardClient(app.url);
      await browser.logIn(email, PASSWORD);
      const page = (await browser.get('/dashboard/destinations')).body;
      expect(page).toContain('Destinations are off on this server');
      expect(page).not.toContain('action="/dashboard/destinations"');
    } finally {
      await app.close();
    }
  });
});
