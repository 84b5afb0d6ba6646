import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfIn, DashboardClient, uniqueEmail, type PageResponse } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/fake-smtp.ts';
import { ledgerSum } from '../support/ledger.ts';
import { pinnedClock } from '../support/monitors.ts';
import { cheapPasswords } from '../support/passwords.ts';

const PASSWORD = 'the owner password';
const PROBE = 'a probing password';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A sign-up answer with what differs between two sign-ups taken out: the date and the address itself. */
function comparable(response: PageResponse, address: string) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date' && name !== 'content-length'));
  return { status: response.status, headers, setCookies: response.setCookies, body: response.body.replaceAll(address, 'ADDRESS') };
}

/*
 * Sign-up where the server sends mail (SMTP_URL, MAIL_FROM, PUBLIC_URL), against a real SMTP server:
 * every address gets the same answer; a new one a link that makes the account, an address with an
 * account a mail that says so. The mail jobs run as the worker runs them (`accountLinks.mail`), on a
 * pinned clock.
 */
describe.each(engines)('sign-up confirmed by mail on %s', (engine) => {
  let app: TestApp;
  let smtp: FakeSmtp;
  let hashes = 0;
  const clock = pinnedClock('2026-12-01T09:00:00.000Z');
  const countingPasswords = { ...cheapPasswords, hash: (password: string) => (hashes++, cheapPasswords.hash(password)) };

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    app = await startTestApp(engine, {
      worker: false,
      publicUrl: 'self',
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'subpilot <accounts@subpilot.test>', SIGNUP_CREDITS: '10' },
      overrides: { clock: clock.now, passwords: countingPasswords },
    });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  const signUp = (email: string, password: string, browser = new DashboardClient(app.url)) => browser.signUp(email, password);
  /** Runs the mail jobs the forms queued, as the worker does. */
  const sendMails = async () => {
    const rows = await app.database.db.selectFrom('account_tokens').select('id').where('mailed_at', 'is', null).execute();
    for (const { id } of rows) await app.services.accountLinks.mail(id);
  };
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.envelope.to.includes(address));
  const linkIn = (text: string) => new RegExp(`${app.url}/dashboard/signup/confirm/[A-Za-z0-9_-]{43}`).exec(text)![0].slice(app.url.length);
  const accountOf = (email: string) => app.database.db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirst();

  it('a free address and one with an account get the same page byte for byte, no session, no account, the same work', async () => {
    const taken = uniqueEmail('taken');
    await app.services.accounts.createAccount(taken, PASSWORD);
    const free = uniqueEmail('free');
    hashes = 0;
    const answers = [await signUp(free, PROBE), await signUp(taken, PROBE)];
    expect(hashes).toBe(2);
    expect(comparable(answers[1]!, taken)).toEqual(comparable(answers[0]!, free));
    expect(answers[0]!.status).toBe(200);
    expect(answers[0]!.setCookies.filter((cookie) => cookie.includes('session'))).toEqual([]);
    expect(answers[0]!.body).toContain('<title>Check your inbox</title>');
    expect(answers[0]!.body).toContain(`We sent a mail to <strong>${free}</strong>`);
    expect(await accountOf(free)).toBeUndefined();

    await sendMails();
    expect(mailsTo(free).map((mail) => mail.subject)).toEqual(['Confirm your address to open your subpilot account']);
    const [notice] = mailsTo(taken);
    expect(notice!.subject).toBe('You already have a subpilot account');
    expect(notice!.text).toContain(`${app.url}/dashboard/login`);
    expect(notice!.text).toContain(`${app.url}/dashboard/password-reset`);
    expect(notice!.text).not.toContain('/signup/confirm/');
    expect((await new DashboardClient(app.url).logIn(taken, PASSWORD)).location).toBe('/dashboard/keys');
  });

  it('the link, opened in the browser that signed up, asks only for a click, signs in and lands on the Keys page with the sign-up credits', async () => {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail('same');
    await signUp(email, PASSWORD, browser);
    await sendMails();
    const link = linkIn(mailsTo(email)[0]!.text);
    const page = await browser.get(link);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`Open the subpilot account of <strong>${email}</strong>`);
    expect(page.body).not.toContain('name="password"');
    expect(await accountOf(email)).toBeUndefined();

    const confirmed = await browser.post(link, { csrf: csrfIn(page.body) });
    expect(confirmed).toMatchObject({ status: 303, location: '/dashboard/keys?welcome=1' });
    expect((await browser.get('/dashboard/keys?welcome=1')).body).toContain('It has 10 credits to try the API');
    const { id } = (await accountOf(email))!;
    expect(await app.services.credits.spendableBalance(id)).toBe(10);
    expect(await ledgerSum(app.database.db, id)).toBe(10);
    expect((await new DashboardClient(app.url).logIn(email, PASSWORD)).location).toBe('/dashboard/keys');

    const again = await new DashboardClient(app.url).get(link);
    expect(again.status).toBe(410);
    expect(again.body).toContain('This confirmation link has expired, was already used, or was replaced by a newer mail.');
  });

  it('in another browser the link asks for the password chosen at sign-up: a wrong one opens nothing, the right one opens the account', async () => {
    const email = uniqueEmail('other');
    await signUp(email, PASSWORD);
    await sendMails();
    const link = linkIn(mailsTo(email)[0]!.text);
    const elsewhere = new DashboardClient(app.url);
    const page = await elsewhere.get(link);
    expect(page.body).toContain('This is not the browser that signed up: type the password chosen then.');
    const wrong = await elsewhere.post(link, { csrf: csrfIn(page.body), password: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('That is not the password chosen at sign-up.');
    expect(await accountOf(email)).toBeUndefined();
    const right = await elsewhere.post(link, { csrf: csrfIn(wrong.body), password: PASSWORD });
    expect(right).toMatchObject({ status: 303, location: '/dashboard/keys?welcome=1' });
    expect(await accountOf(email)).toBeDefined();
  });

  it('the link is stored only as its SHA-256, a newer sign-up replaces it, and it stops working after 24 hours', async () => {
    const email = uniqueEmail('expiry');
    await signUp(email, PASSWORD);
    await sendMails();
    const first = linkIn(mailsTo(email)[0]!.text);
    const token = first.split('/').pop()!;
    const rows = await app.database.db.selectFrom('account_tokens').selectAll().where('email', '=', email).execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((row) => row.token_hash)).toEqual([sha256(token)]);

    await signUp(email, PASSWORD);
    await sendMails();
    const second = linkIn(mailsTo(email)[1]!.text);
    expect((await new DashboardClient(app.url).get(first)).status).toBe(410);
    expect((await new DashboardClient(app.url).get(second)).status).toBe(200);
    clock.advance(24 * 3600);
    expect((await new DashboardClient(app.url).get(second)).status).toBe(410);
  });

  it('at most five mails an hour go to one address, whatever is posted', async () => {
    const email = uniqueEmail('flood');
    for (let i = 0; i < 7; i++) await signUp(email, PASSWORD);
    await sendMails();
    expect(mailsTo(email)).toHaveLength(5);
    clock.advance(3601);
    await signUp(email, PASSWORD);
    await sendMails();
    expect(mailsTo(email)).toHaveLength(6);
  });

  it('a link for an address that got an account meanwhile (the operator made one) makes nothing and says to log in', async () => {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail('meanwhile');
    await signUp(email, PASSWORD, browser);
    await sendMails();
    const link = linkIn(mailsTo(email)[0]!.text);
    const operatorMade = await app.services.accounts.createAccount(email, 'the operator password');
    const answer = await browser.post(link, { csrf: csrfIn((await browser.get(link)).body) });
    expect(answer.status).toBe(409);
    expect(answer.body).toContain('This address already has an account: log in with its password');
    expect(await ledgerSum(app.database.db, operatorMade.id)).toBe(0);
    expect((await new DashboardClient(app.url).logIn(email, 'the operator password')).location).toBe('/dashboard/keys');
  });

  it('two confirmations of one link at the same moment make one account', async () => {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail('twice');
    await signUp(email, PASSWORD, browser);
    await sendMails();
    const link = linkIn(mailsTo(email)[0]!.text);
    const csrf = csrfIn((await browser.get(link)).body);
    const answers = await Promise.all([browser.post(link, { csrf }), browser.post(link, { csrf })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 410]);
    const { id } = (await accountOf(email))!;
    expect(await ledgerSum(app.database.db, id)).toBe(10);
  });
});
