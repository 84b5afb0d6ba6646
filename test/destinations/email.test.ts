import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/fake-smtp.ts';
import { matchStore } from '../support/matches.ts';
import { pinnedClock } from '../support/monitors.ts';
import { SECRET_KEY_HEX } from '../support/publishing.ts';

const PUBLIC_URL = 'https://app.subpilot.test';

/*
 * Email destinations against a real SMTP server (smtp-server, each mail parsed by mailparser): the
 * confirmation, alerts with their footer and headers, and the links of a mail followed as a person
 * or a mail provider follows them, with nothing but the mail (no log-in, no cookie). The outbox is
 * drained as the worker drains it.
 */
describe.each(engines)('email destinations on %s', (engine) => {
  let app: TestApp;
  let smtp: FakeSmtp;
  let token: string;
  let accountId: string;
  let owner: string;
  let n = 0;
  const clock = pinnedClock('2026-03-28T07:30:00.000Z');

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    app = await startTestApp(engine, {
      worker: false,
      env: { SECRET_KEY: SECRET_KEY_HEX, PUBLIC_URL, SMTP_URL: smtp.url, MAIL_FROM: 'subpilot alerts <alerts@subpilot.test>' },
      overrides: { clock: clock.now, sleep: async (ms) => clock.advance(ms / 1000) },
    });
    ({ token, accountId, email: owner } = await app.accountWithKey(0));
    await app.database.db.updateTable('accounts').set({ webhook_url: 'https://receiver.example/hooks' }).where('id', '=', accountId).execute();
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.envelope.to.includes(address));
  /** A link of a mail, opened on this server: the mail's links lead to PUBLIC_URL. */
  const follow = (link: string, init: RequestInit = {}) => fetch(`${app.url}${link.slice(PUBLIC_URL.length)}`, { redirect: 'manual', ...init });
  const linkIn = (text: string, path: string) => new RegExp(`${PUBLIC_URL}/dashboard/alerts/${path}/[A-Za-z0-9_-]+`).exec(text)![0];
  const read = async (id: string) => (await (await app.api('GET', `/api/v1/destinations/${id}`, { token })).json()) as { status: string; address: string; off_reason: string | null };
  const created = async () => {
    const address = `person${++n}@example.com`;
    const response = await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'email', name: 'Sales inbox', address } });
    expect(response.status, await response.clone().text()).toBe(201);
    const { id, status } = (await response.json()) as { id: string; status: string };
    expect(status).toBe('unconfirmed');
    await app.services.destinations.drain(id);
    return { id, address };
  };
  const confirmed = async () => {
    const { id, address } = await created();
    const [mail] = mailsTo(address);
    expect((await follow(linkIn(mail!.text, 'confirm'), { method: 'POST' })).status).toBe(200);
    return { id, address };
  };

  it('mails one confirmation and nothing else until its link is followed; opening the link alone confirms nothing', async () => {
    const { id, address } = await created();
    const mails = mailsTo(address);
    expect(mails.map((mail) => mail.subject)).toEqual(['Confirm your address for subpilot alerts']);
    expect((await app.api('POST', `/api/v1/destinations/${id}/test`, { token, body: {} })).status).toBe(409);
    const link = linkIn(mails[0]!.text, 'confirm');
    const page = await follow(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(address);
    expect((await read(id)).status).toBe('unconfirmed');
    expect((await follow(link, { method: 'POST' })).status).toBe(200);
    expect(await read(id)).toMatchObject({ status: 'active', address });
    expect((await app.api('POST', `/api/v1/destinations/${id}/test`, { token, body: {} })).status).toBe(202);
    await app.services.destinations.drain(id);
    expect(mailsTo(address)).toHaveLength(2);
  });

  it('sends a match as text and HTML with a footer, its outbox id as Message-ID, and RFC 8058 one-click headers', async () => {
    const { id, address } = await confirmed();
    const monitor = (await (await app.api('POST', '/api/v1/monitors', { token, body: { name: 'CRM <questions>', subreddits: ['r/node'], keywords: ['crm'] } })).json()) as { id: string };
    await app.api('PUT', `/api/v1/monitors/${monitor.id}/destinations/${id}`, { token, body: { frequency: 'instant' } });
    await matchStore(app.services.db)(monitor.id, accountId, 1);
    await app.services.alerts.sendDue();
    await app.services.destinations.drain(id);
    const mail = mailsTo(address).at(-1)!;
    expect(mail.subject).toMatch(/^Trying subpilot \d+ \(r\/node\)$/);
    expect(mail.text).toContain('New post for monitor "CRM <questions>"');
    expect(mail.html).toContain('monitor "CRM &lt;questions&gt;"');
    expect(mail.text).toContain('You get this because this address is the subpilot alert destination "Sales inbox".');
    expect(mail.messageId).toMatch(/^<out_[0-9a-f]+@app\.subpilot\.test>$/);
    const unsubscribe = linkIn(mail.text, 'unsubscribe');
    expect(mail.headers['list-unsubscribe']).toBe(`<${unsubscribe}>`);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });

  it('one-click unsubscribe works from the mail alone: switched off, the owner told once, a second click harmless', async () => {
    const { id, address } = await confirmed();
    const header = mailsTo(address)[0]!.headers['list-unsubscribe']!;
    const link = header.slice(1, -1);
    const post = () => follow(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    const first = await post();
    expect(first.status).toBe(200);
    expect(await read(id)).toMatchObject({ status: 'off', off_reason: 'the recipient unsubscribed (one click in a mail)' });
    const multipart = new FormData();
    multipart.set('List-Unsubscribe', 'One-Click');
    expect((await follow(link, { method: 'POST', body: multipart })).status).toBe(200);
    expect((await post()).status).toBe(200);
    const told = (await app.services.webhooks.recentDeliveries(accountId)).filter((d) => d.event_type === 'destination.off' && JSON.stringify(d).includes(id));
    expect(told).toHaveLength(1);
  });

  it('a link altered by one character is refused in words, and never acts', async () => {
    const { id, address } = await created();
    const link = linkIn(mailsTo(address)[0]!.text, 'confirm');
    const altered = `${link.slice(0, -1)}${link.endsWith('A') ? 'B' : 'A'}`;
    const answer = await follow(altered, { method: 'POST' });
    expect(answer.status).toBe(404);
    expect(await answer.text()).toContain('This link is not valid');
    expect((await read(id)).status).toBe('unconfirmed');
  });

  it('an address the mail server refuses for good is switched off after one attempt', async () => {
    smtp.refuseRecipient('gone@example.com', 550, '5.1.1 user unknown');
    const response = await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'email', name: 'Gone', address: 'gone@example.com' } });
    const { id } = (await response.json()) as { id: string };
    await app.services.destinations.drain(id);
    expect(await read(id)).toMatchObject({ status: 'off', off_reason: expect.stringContaining('550') });
    // The owner is told at the address the account logs in with (the worker's job, run here by hand).
    await app.services.destinations.mailOwnerOff(id);
    const [told] = mailsTo(owner);
    expect(told).toMatchObject({ subject: 'Alerts to "Gone" were switched off', messageId: `<off-${id}@app.subpilot.test>` });
    expect(told!.text).toContain('550');
    expect(told!.text).toContain(`${PUBLIC_URL}/dashboard/destinations/${id}`);
  });

  it('refuses an email destination given a url, and a webhook given an address, with the field that is wrong', async () => {
    const email = await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'email', name: 'x', url: 'https://hooks.slack.com/services/T1/B1/x' } });
    expect(email.status).toBe(422);
    expect(await email.json()).toMatchObject({ code: 'destinations.invalid_target', errors: [{ path: '/url' }] });
    const slack = await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'slack', name: 'x', address: 'a@example.com' } });
    expect(await slack.json()).toMatchObject({ code: 'destinations.invalid_target', errors: [{ path: '/address' }] });
  });
});

describe.each(engines)('email destinations without SMTP, on %s', (engine) => {
  it('are refused with 503 naming SMTP_URL', async () => {
    const app = await startTestApp(engine, { worker: false, env: { SECRET_KEY: SECRET_KEY_HEX, PUBLIC_URL } });
    try {
      const { token } = await app.accountWithKey(0);
      const response = await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'email', name: 'x', address: 'a@example.com' } });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'destinations.channel_not_configured', detail: expect.stringContaining('SMTP_URL') });
    } finally {
      await app.close();
    }
  });
});
