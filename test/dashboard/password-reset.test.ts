import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfIn, DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/fake-smtp.ts';
import { pinnedClock } from '../support/monitors.ts';

const OLD = 'the old password';
const NEW = 'a brand new password';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/*
 * "Forgot password?" against a real SMTP server: the same answer for every address, a mail only to an
 * account's, a link that works once and for an hour, and every session ended when it is used. The mail
 * jobs run as the worker runs them (`accountLinks.mail`), on a pinned clock.
 */
describe.each(engines)('password reset by mail on %s', (engine) => {
  let app: TestApp;
  let smtp: FakeSmtp;
  const clock = pinnedClock('2026-12-01T09:00:00.000Z');

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    app = await startTestApp(engine, {
      worker: false,
      publicUrl: 'self',
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'subpilot <accounts@subpilot.test>' },
      overrides: { clock: clock.now },
    });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  const sendMails = async () => {
    const rows = await app.database.db.selectFrom('account_tokens').select('id').where('mailed_at', 'is', null).execute();
    for (const { id } of rows) await app.services.accountLinks.mail(id);
  };
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.envelope.to.includes(address));
  const linkIn = (text: string) => new RegExp(`${app.url}/dashboard/password-reset/[A-Za-z0-9_-]{43}`).exec(text)![0].slice(app.url.length);
  const ask = (email: string, browser = new DashboardClient(app.url)) => browser.submit('/dashboard/password-reset', '/dashboard/password-reset', { email });
  const withAccount = async () => {
    const email = uniqueEmail('reset');
    await app.services.accounts.createAccount(email, OLD);
    return email;
  };
  const mailedLink = async (email: string) => {
    await ask(email);
    await sendMails();
    return linkIn(mailsTo(email).at(-1)!.text);
  };

  it('the log-in page links to it, and asking answers the same page whether or not the address has an account; only an account is mailed', async () => {
    expect((await new DashboardClient(app.url).get('/dashboard/login')).body).toContain('<a href="/dashboard/password-reset">Forgot password?</a>');
    const known = await withAccount();
    const unknown = uniqueEmail('nobody');
    const [forKnown, forUnknown] = [await ask(known), await ask(unknown)];
    expect(forKnown.status).toBe(200);
    expect(forUnknown.status).toBe(200);
    expect(forUnknown.body.replaceAll(unknown, 'ADDRESS')).toBe(forKnown.body.replaceAll(known, 'ADDRESS'));
    expect(forKnown.body).toContain(`If <strong>${known}</strong> has an account here, a mail with a link to set a new password is on its way.`);

    await sendMails();
    expect(mailsTo(unknown)).toEqual([]);
    const [mail] = mailsTo(known);
    expect(mail!.subject).toBe('Set a new subpilot password');
    expect(mail!.text).toContain('it works for 60 minutes, once');
    expect(await app.database.db.selectFrom('account_tokens').select('id').where('email', '=', unknown).execute()).toEqual([]);
  });

  it('the link sets a new password once, ends every session of the account, and signs this browser in', async () => {
    const email = await withAccount();
    const elsewhere = new DashboardClient(app.url);
    await elsewhere.logIn(email, OLD);
    expect((await elsewhere.get('/dashboard/keys')).status).toBe(200);

    const link = await mailedLink(email);
    const browser = new DashboardClient(app.url);
    const page = await browser.get(link);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<input type="email" name="email" value="${email}" autocomplete="username" readonly>`);
    const set = await browser.post(link, { csrf: csrfIn(page.body), password: NEW });
    expect(set).toMatchObject({ status: 303, location: '/dashboard/keys?password=1' });
    expect((await browser.get('/dashboard/keys?password=1')).body).toContain('Your new password is set, and every other browser signed in to this account was logged out.');

    expect((await elsewhere.get('/dashboard/keys')).location).toBe('/dashboard/login');
    expect((await new DashboardClient(app.url).logIn(email, OLD)).status).toBe(400);
    expect((await new DashboardClient(app.url).logIn(email, NEW)).location).toBe('/dashboard/keys');
    const again = await new DashboardClient(app.url).get(link);
    expect(again.status).toBe(410);
    expect(again.body).toContain('Ask for a new one');
  });

  it('a short new password is refused beside the form and leaves the link working', async () => {
    const email = await withAccount();
    const link = await mailedLink(email);
    const browser = new DashboardClient(app.url);
    const refused = await browser.post(link, { csrf: csrfIn((await browser.get(link)).body), password: 'short' });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('A password has at least 10 characters.');
    expect((await browser.post(link, { csrf: csrfIn(refused.body), password: NEW })).status).toBe(303);
  });

  it('the link is stored only as its SHA-256, a newer request replaces it, and it stops working after 60 minutes', async () => {
    const email = await withAccount();
    const first = await mailedLink(email);
    const rows = await app.database.db.selectFrom('account_tokens').selectAll().where('email', '=', email).execute();
    expect(JSON.stringify(rows)).not.toContain(first.split('/').pop());
    expect(rows.map((row) => row.token_hash)).toEqual([sha256(first.split('/').pop()!)]);

    const second = await mailedLink(email);
    expect((await new DashboardClient(app.url).get(first)).status).toBe(410);
    clock.advance(59 * 60);
    expect((await new DashboardClient(app.url).get(second)).status).toBe(200);
    clock.advance(60);
    expect((await new DashboardClient(app.url).get(second)).status).toBe(410);
  });

  it('a mail the server defers is sent again by the job with a new link, and only the newest link works', async () => {
    const email = await withAccount();
    await ask(email);
    smtp.failNext(451, '4.3.0 try again later');
    const [row] = await app.database.db.selectFrom('account_tokens').select('id').where('email', '=', email).execute();
    await expect(app.services.accountLinks.mail(row!.id)).rejects.toThrow('the reset mail was not sent');
    await app.services.accountLinks.mail(row!.id);
    const [mail] = mailsTo(email);
    expect((await new DashboardClient(app.url).get(linkIn(mail!.text))).status).toBe(200);
  });
});

describe.each(engines)('password reset without mail on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false });
  });
  afterAll(() => app.close());

  it('the page says to ask the operator, has no form, and a post to it records nothing', async () => {
    const browser = new DashboardClient(app.url);
    const page = await browser.get('/dashboard/password-reset');
    expect(page.status).toBe(200);
    expect(page.body).toContain('This server does not send mail, so a password cannot be reset from here. Ask the operator of this server');
    expect(page.body).toContain('subpilot accounts set-password');
    expect(page.body).not.toContain('<form method="post" action="/dashboard/password-reset"');
    const posted = await browser.post('/dashboard/password-reset', { csrf: csrfIn((await browser.get('/dashboard/login')).body), email: 'someone@example.com' });
    expect(posted.status).toBe(200);
    expect(await app.database.db.selectFrom('account_tokens').selectAll().execute()).toEqual([]);
  });
});
