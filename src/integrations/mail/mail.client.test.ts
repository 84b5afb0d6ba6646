import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSmtp, type FakeSmtp } from '../../../test/support/fake-smtp.ts';
import { classifySmtp, createMailer, type MailMessage, type Mailer, type SmtpResult } from './mail.client.ts';

const FROM = 'subpilot alerts <alerts@subpilot.example>';
const TO = 'owner@example.com';
const USER = 'alerts-login';
const PASSWORD = 's3cret-Smtp-Passw0rd';
const MESSAGE_ID = '<out_01HZX3K9Q2@subpilot.example>';
const UNSUBSCRIBE = 'https://subpilot.example/dashboard/alerts/unsubscribe/dst_1.tok3n';

const MAIL: MailMessage = {
  subject: 'New match in r/typescript',
  text: 'Kysely mentioned in r/typescript\nhttps://reddit.com/r/typescript/comments/abc',
  html: '<p>Kysely mentioned in <b>r/typescript</b></p>',
  messageId: MESSAGE_ID,
  unsubscribeUrl: UNSUBSCRIBE,
};

let smtp: FakeSmtp;
/** Every mailer a test made, closed after it. */
let mailers: Mailer[];

beforeEach(async () => {
  smtp = await startFakeSmtp();
  mailers = [];
});
afterEach(async () => {
  mailers.forEach((mailer) => mailer.close());
  await smtp.close();
});

function mailer(smtpUrl = smtp.url, timeoutMs = 2000) {
  const created = createMailer({ smtpUrl, from: FROM, timeoutMs });
  mailers.push(created);
  return created;
}

const withLogin = (server: FakeSmtp, password = PASSWORD) => `smtp://${USER}:${encodeURIComponent(password)}@127.0.0.1:${server.port}`;

describe('sending a mail over SMTP', () => {
  it('delivers it once, with text and HTML parts, our Message-ID and both one-click unsubscribe headers', async () => {
    const outcome = await mailer().send(TO, MAIL);
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(outcome).toEqual({ outcome: 'sent', status: 250, answer: `250 2.0.0 Ok: queued as ${mail!.queueId}`, messageId: mail!.queueId });
    expect(mail).toMatchObject({
      envelope: { from: 'alerts@subpilot.example', to: [TO] },
      from: 'alerts@subpilot.example',
      to: [TO],
      subject: MAIL.subject,
      text: MAIL.text,
      html: MAIL.html,
      messageId: MESSAGE_ID,
    });
    // RFC 8058 §3.1: one HTTPS URI in angle brackets, and the one key/value pair, exactly.
    expect(mail!.headers['list-unsubscribe']).toBe(`<${UNSUBSCRIBE}>`);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail!.headers['message-id']).toBe(MESSAGE_ID);
    expect(mail!.headers['content-type']).toMatch(/^multipart\/alternative;/);
  });

  it('adds the caller\'s headers, and no unsubscribe header without a link', async () => {
    const { unsubscribeUrl: _, ...plain } = MAIL;
    await mailer().send(TO, { ...plain, headers: { 'X-Subpilot-Destination': 'dst_1' } });
    const [mail] = smtp.mails;
    expect(mail!.headers['x-subpilot-destination']).toBe('dst_1');
    expect(mail!.headers).not.toHaveProperty('list-unsubscribe');
    expect(mail!.headers).not.toHaveProperty('list-unsubscribe-post');
  });

  it('gives a plain http link List-Unsubscribe alone, since one-click requires HTTPS', async () => {
    await mailer().send(TO, { ...MAIL, unsubscribeUrl: 'http://127.0.0.1:8080/dashboard/alerts/unsubscribe/t' });
    expect(smtp.mails[0]!.headers['list-unsubscribe']).toBe('<http://127.0.0.1:8080/dashboard/alerts/unsubscribe/t>');
    expect(smtp.mails[0]!.headers).not.toHaveProperty('list-unsubscribe-post');
  });

  it('sends to one address even when it holds a comma', async () => {
    await mailer().send('"a,b"@example.com', MAIL);
    expect(smtp.mails.map((mail) => mail.envelope.to)).toEqual([['"a,b"@example.com']]);
  });

  it('calls an unknown recipient gone, in the server\'s words, and delivers nothing', async () => {
    smtp.refuseRecipient(TO);
    expect(await mailer().send(TO, MAIL)).toEqual({
      outcome: 'gone', status: 550, answer: '550 5.1.1 user unknown', reason: 'the mail server refused the address: 550 5.1.1 user unknown',
    });
    expect(smtp.mails).toHaveLength(0);
  });

  it('calls a 451 at the end of the message a failure worth retrying, and the retry arrives', async () => {
    smtp.failNext(451, '4.7.1 Greylisted, please try again later');
    const client = mailer();
    expect(await client.send(TO, MAIL)).toEqual({
      outcome: 'failed', status: 451, answer: '451 4.7.1 Greylisted, please try again later', retryable: true,
      error: 'the mail server deferred the mail: 451 4.7.1 Greylisted, please try again later',
    });
    expect(smtp.mails).toHaveLength(0);
    expect(await client.send(TO, MAIL)).toMatchObject({ outcome: 'sent' });
    expect(smtp.mails).toHaveLength(1);
  });

  it('gives up on a server that answers too late, as a failure worth retrying, and the resend carries the same Message-ID', async () => {
    smtp.slow(1500);
    const client = mailer(smtp.url, 200);
    expect(await client.send(TO, MAIL)).toEqual({
      outcome: 'failed', status: null, answer: '', retryable: true, error: 'the mail server did not answer within 0.2 s',
    });
    smtp.slow(0);
    expect(await client.send(TO, MAIL)).toMatchObject({ outcome: 'sent' });
    // The first one had arrived before the answer was due: the receiver sees one Message-ID twice.
    expect(smtp.mails.map((mail) => mail.messageId)).toEqual([MESSAGE_ID, MESSAGE_ID]);
  });

  it('calls a closed port a failure worth retrying, whose error names neither the address nor the password', async () => {
    const closed = await startFakeSmtp();
    const url = withLogin(closed);
    await closed.close();
    const outcome = await mailer(url).send(TO, MAIL);
    expect(outcome).toEqual({ outcome: 'failed', status: null, answer: '', retryable: true, error: 'could not connect to the mail server (ECONNREFUSED)' });
    expect(JSON.stringify(outcome)).not.toContain(PASSWORD);
  });

  it('refuses a link that is not http(s) without sending', async () => {
    expect(await mailer().send(TO, { ...MAIL, unsubscribeUrl: 'mailto:unsubscribe@subpilot.example' })).toMatchObject({ outcome: 'failed', retryable: false });
    expect(smtp.mails).toHaveLength(0);
  });
});

describe('the SMTP login', () => {
  let guarded: FakeSmtp;
  beforeEach(async () => {
    guarded = await startFakeSmtp({ auth: { user: USER, pass: PASSWORD } });
  });
  afterEach(() => guarded.close());

  it('is given from the URL', async () => {
    expect(await mailer(withLogin(guarded)).send(TO, MAIL)).toMatchObject({ outcome: 'sent' });
    expect(guarded.mails[0]!.user).toBe(USER);
  });

  it('when wrong, is a failure worth retrying, never gone, and the outcome quotes no password', async () => {
    const wrong = 'Wr0ng-Passw0rd-1234';
    const outcome = await mailer(withLogin(guarded, wrong)).send(TO, MAIL);
    expect(outcome).toEqual({
      outcome: 'failed', status: 535, answer: '535 5.7.8 Error: authentication failed: authentication failure', retryable: true,
      error: 'the mail server refused our login: 535 5.7.8 Error: authentication failed: authentication failure; check the user and password of SMTP_URL',
    });
    expect(JSON.stringify(outcome)).not.toContain(wrong);
    expect(guarded.mails).toHaveLength(0);
  });

  it('when missing, is a failure worth retrying too', async () => {
    expect(await mailer(guarded.url).send(TO, MAIL)).toMatchObject({ outcome: 'failed', status: 530, retryable: true });
  });

  it('is checked by verify, which throws in words without the password', async () => {
    await expect(mailer(withLogin(guarded)).verify()).resolves.toBeUndefined();
    const failure = await mailer(withLogin(guarded, 'Wr0ng-Passw0rd-1234')).verify().catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^the mail server refused our login: 535 /);
    expect((failure as Error).message).not.toContain('Wr0ng-Passw0rd-1234');
    expect((failure as Error).cause).toBeUndefined();
  });

  it('is cut out of a reply that echoes it, with the URL', async () => {
    const url = withLogin(guarded);
    guarded.refuseRecipient(TO, 550, `5.1.1 user unknown (session ${url} ${USER}:${PASSWORD})`);
    const outcome = await mailer(url).send(TO, MAIL);
    expect(outcome).toMatchObject({ outcome: 'gone', status: 550 });
    const text = JSON.stringify(outcome);
    for (const secret of [url, PASSWORD, USER]) expect(text).not.toContain(secret);
    expect(outcome.answer).toBe('550 5.1.1 user unknown (session … …:…)');
  });
});

describe('an SMTP URL that is not one', () => {
  it('is refused when the mailer is made, without quoting it', () => {
    expect(() => createMailer({ smtpUrl: 'smtp://us er:pass word here@host name', from: FROM, timeoutMs: 1000 })).toThrow(
      'SMTP_URL is not a valid smtp:// or smtps:// URL (the value is not shown)',
    );
  });
});

describe("what an SMTP server's answer means", () => {
  const context = { messageId: MESSAGE_ID, timeoutMs: 10_000 };
  const refused = (command: string, response: string): SmtpResult => ({
    sent: false, code: command === 'DATA' ? 'EMESSAGE' : 'EENVELOPE', command, response, responseCode: Number(response.slice(0, 3)),
  });

  it.each([
    ['Postfix', '250 2.0.0 Ok: queued as 4F3A21C0E5', '4F3A21C0E5'],
    ['Exim', '250 OK id=1qABCD-000123-4E', '1qABCD-000123-4E'],
    ['Gmail, which names no queue id', '250 2.0.0 OK  1700000000 a1-20020a05600c000100b0040e3si1wmb.12 - gsmtp', MESSAGE_ID],
  ])('takes the receipt of an accepted mail from %s', (_, response, receipt) => {
    expect(classifySmtp({ sent: true, response }, context)).toEqual({ outcome: 'sent', status: 250, answer: response.replace(/\s+/g, ' '), messageId: receipt });
  });

  it.each([
    ['RCPT TO', '550 5.1.1 <owner@example.com>: Recipient address rejected: User unknown in local recipient table'],
    ['RCPT TO', '551 5.1.6 user has moved'],
    ['RCPT TO', '553 5.1.3 bad recipient address syntax'],
    ['RCPT TO', '550 No Such User Here'],
    ['RCPT TO', "550 5.2.1 The email account that you tried to reach is disabled"],
    ['RCPT TO', '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup'],
    ['DATA', '550 5.1.1 unknown user'],
  ])('calls the refusal of %s "%s" gone', (command, response) => {
    expect(classifySmtp(refused(command, response), context)).toEqual({
      outcome: 'gone', status: Number(response.slice(0, 3)), answer: response, reason: `the mail server refused the address: ${response}`,
    });
  });

  it('reads a multi-line refusal as one line (Gmail\'s)', () => {
    const response = '550-5.1.1 The email account that you tried to reach does not exist. Please try\n550-5.1.1 double-checking the recipient\'s email address.\n550 5.1.1  https://support.google.com/mail/?p=NoSuchUser a1si1 - gsmtp';
    expect(classifySmtp(refused('RCPT TO', response), context)).toMatchObject({
      outcome: 'gone',
      answer: "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address. https://support.google.com/mail/?p=NoSuchUser a1si1 - gsmtp",
    });
  });

  it.each([
    ['DATA', '552 5.3.4 Message size exceeds fixed limit'],
    ['DATA', '554 5.7.1 Message rejected as spam'],
    ['RCPT TO', '550 5.7.1 Recipient address rejected: Access denied'],
    ['RCPT TO', '552 5.2.2 Mailbox full'],
    ['DATA', '500 5.5.2 Syntax error'],
  ])('calls the refusal of %s "%s" a failure not worth retrying, not gone', (command, response) => {
    expect(classifySmtp(refused(command, response), context)).toMatchObject({ outcome: 'failed', status: Number(response.slice(0, 3)), retryable: false, answer: response });
  });

  it.each([
    ['DATA', '451 4.7.1 Greylisted, please try again later', /deferred/],
    ['RCPT TO', '450 4.2.0 Mailbox temporarily unavailable', /deferred/],
    ['RCPT TO', '452 4.5.3 Too many recipients', /deferred/],
    ['CONN', '421 4.3.2 Service not available, closing transmission channel', /deferred/],
    ['MAIL FROM', '503 5.5.1 Error: nested MAIL command', /out of sequence/],
    ['RCPT TO', '554 5.7.1 <owner@example.com>: Relay access denied', /will not relay/],
    ['RCPT TO', '550 relay not permitted', /will not relay/],
    ['AUTH PLAIN', '535 5.7.8 Error: authentication failed', /refused our login/],
    ['AUTH LOGIN', '454 4.7.0 Too many login attempts, please try again later', /refused our login/],
    ['MAIL FROM', '530 5.7.0 Authentication required', /wants a login/],
    ['MAIL FROM', '553 5.7.1 <alerts@subpilot.example>: Sender address rejected: not owned by user', /sender address \(MAIL_FROM\)/],
    ['MAIL FROM', '550 5.1.7 Invalid sender address', /sender address \(MAIL_FROM\)/],
  ])('calls the answer to %s "%s" a failure worth retrying, never gone', (command, response, error) => {
    const outcome = classifySmtp(refused(command, response), context);
    expect(outcome).toMatchObject({ outcome: 'failed', status: Number(response.slice(0, 3)), retryable: true, answer: response });
    expect(outcome.outcome === 'failed' && outcome.error).toMatch(error);
  });

  it.each([
    [{ code: 'ESOCKET', originalCode: 'ECONNREFUSED', command: 'CONN' }, 'could not connect to the mail server (ECONNREFUSED)'],
    [{ code: 'EDNS', originalCode: 'ENOTFOUND', command: 'CONN' }, 'could not connect to the mail server (ENOTFOUND)'],
    [{ code: 'ETIMEDOUT', command: 'CONN' }, 'the mail server did not answer within 10 s'],
    [{ code: 'EABORT' }, 'the mail server did not answer within 10 s'],
    [{ code: 'ESOCKET', originalCode: 'CERT_HAS_EXPIRED', command: 'CONN' }, 'could not set up TLS with the mail server (CERT_HAS_EXPIRED)'],
    [{ code: 'ECONNECTION', command: 'CONN' }, 'the mail server closed the connection'],
  ])('calls %j, without an answer, a failure worth retrying', (error, words) => {
    expect(classifySmtp({ sent: false, ...error }, context)).toEqual({ outcome: 'failed', status: null, answer: '', retryable: true, error: words });
  });

  it('calls nodemailer\'s own refusal of a message, without an answer, a failure not worth retrying', () => {
    expect(classifySmtp({ sent: false, code: 'EENVELOPE' }, context)).toEqual({
      outcome: 'failed', status: null, answer: '', retryable: false, error: 'the mail could not be sent (EENVELOPE)',
    });
  });

  it('clips a long answer to 500 characters, and the reason quotes less', () => {
    const outcome = classifySmtp(refused('RCPT TO', `550 5.1.1 ${'x'.repeat(2000)}`), context);
    expect(outcome.answer).toHaveLength(500);
    expect(outcome.outcome === 'gone' && outcome.reason.length).toBeLessThan(260);
  });
});
