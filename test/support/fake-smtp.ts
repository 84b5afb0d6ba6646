/**
 * A real SMTP server on 127.0.0.1 for the mail client's tests: `smtp-server` speaks the protocol and
 * `mailparser` reads what arrives, both from the Nodemailer project (delivery-2026.md, "Email";
 * nodemailer.com/extras/smtp-server, nodemailer.com/extras/mailparser). No TLS (STARTTLS is switched
 * off, so the client never upgrades): what is tested is the exchange, not the certificate.
 *
 * What it answers, as a receiving MTA does (RFC 5321 §4.2 for the reply codes, §4.2.5 for a reply
 * after the final "." meaning the server has taken the message or not, §4.5.4.1 for a client that
 * sends again after a 4yz):
 *
 * - A refused recipient is refused at RCPT TO, with the code and text given (`refuseRecipient`, by
 *   default "550 5.1.1 user unknown", RFC 3463's bad destination mailbox), the way Postfix refuses an
 *   unknown local user (`smtpd_reject_unlisted_recipient`); onRcptTo's error with `responseCode` is
 *   smtp-server's way to say it (nodemailer.com/extras/smtp-server#validating-recipients-onrcptto).
 * - A temporary failure is answered at the end of DATA (`failNext`, by default "451 4.3.0 …", the
 *   greylisting or local-error answer), after the message has been read, and the message is not kept.
 * - An accepted message is answered "250 2.0.0 Ok: queued as <id>", Postfix's wording, so that the
 *   client can read a queue id from it.
 * - `slow(ms)` holds that final answer back: the message has arrived (it is recorded) but the client
 *   may give up waiting first, the case RFC 5321 §4.1.1.4 and RFC 1047 describe, where a message is
 *   delivered and still sent again. A client that resends it with the same Message-ID shows here as
 *   two entries in `mails` with one `messageId`.
 * - With `auth`, it wants a login (AUTH PLAIN or LOGIN, over plain TCP: `allowInsecureAuth`) and
 *   refuses a wrong one "535 5.7.8 Error: authentication failed", Postfix's words (RFC 4954 §6).
 *
 * Each mail is recorded with its envelope and parsed headers; `headers` holds every header as it was
 * written (lower-cased name, unfolded value from mailparser's `headerLines`), so that a test can check
 * an exact value such as RFC 8058 §3.1's `List-Unsubscribe-Post: List-Unsubscribe=One-Click`.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope: MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] };
  /** The From header's address. */
  from: string;
  /** The To header's addresses. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Angle brackets included, as written. */
  messageId: string;
  /** Every header as written: lower-cased name → unfolded value (the last one when a name repeats). */
  headers: Record<string, string>;
  /** The queue id the server answered with. */
  queueId: string;
  /** The login the client gave, when the server asks for one. */
  user: string | null;
}

export interface FakeSmtpOptions {
  /** Ask for a login with this user and password (AUTH PLAIN or LOGIN); without it no AUTH is offered. */
  auth?: { user: string; pass: string };
}

export interface FakeSmtp {
  /** smtp://127.0.0.1:PORT, without credentials. */
  url: string;
  port: number;
  /** Every message the server took, in order of arrival. */
  mails: ReceivedMail[];
  /** RCPT TO this address (any case) is refused with this code and text. */
  refuseRecipient(address: string, code?: number, text?: string): void;
  /** The next `count` messages are refused at the end of DATA with this code and text, and not kept. */
  failNext(code?: number, text?: string, count?: number): void;
  /** The answer at the end of DATA comes this many milliseconds after the message was taken. */
  slow(ms: number): void;
  close(): Promise<void>;
}

/** An error smtp-server answers with: its `responseCode` is the reply code, its message the text. */
const reply = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

/** RFC 5322 §2.2.3: unfolding removes the CRLF before the folding white space, nothing else. */
const unfold = (line: string) => line.replace(/\r?\n(?=[ \t])/g, '');

export async function startFakeSmtp(options: FakeSmtpOptions = {}): Promise<FakeSmtp> {
  const mails: ReceivedMail[] = [];
  const refused = new Map<string, { code: number; text: string }>();
  const failures: { code: number; text: string }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let slowMs = 0;
  const { auth } = options;

  const server = new SMTPServer({
    // No STARTTLS offered: nodemailer upgrades whenever it is offered, and this server has no certificate.
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !auth,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    // The scripted texts carry their own enhanced codes; smtp-server would add a second one.
    hideENHANCEDSTATUSCODES: true,
    disableReverseLookup: true,
    banner: 'fake-smtp ESMTP',
    logger: false,
    // A client still connected when the test ends is cut off at once, not after smtp-server's 30 s.
    closeTimeout: 50,
    onAuth(login, _session, callback) {
      if (auth && login.username === auth.user && login.password === auth.pass) return callback(null, { user: login.username });
      callback(reply(535, '5.7.8 Error: authentication failed: authentication failure'));
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const refusal = refused.get(address.address.toLowerCase());
      callback(refusal ? reply(refusal.code, refusal.text) : null);
    },
    onData(stream, session, callback) {
      const answer = (error: Error | null, text?: string) => {
        if (slowMs === 0) return callback(error, text);
        const timer = setTimeout(() => (timers.delete(timer), callback(error, text)), slowMs);
        timers.add(timer);
      };
      simpleParser(stream).then(
        (parsed) => {
          const failure = failures.shift();
          if (failure) return answer(reply(failure.code, failure.text));
          const queueId = randomBytes(5).toString('hex').toUpperCase();
          const headers: Record<string, string> = {};
          for (const { key, line } of parsed.headerLines) {
            const unfolded = unfold(line);
            headers[key] = unfolded.slice(unfolded.indexOf(':') + 1).trim();
          }
          const envelopeFrom = session.envelope.mailFrom;
          mails.push({
            envelope: { from: envelopeFrom ? envelopeFrom.address : '', to: session.envelope.rcptTo.map((rcpt) => rcpt.address) },
            from: parsed.from?.value[0]?.address ?? '',
            to: [parsed.to ?? []].flat().flatMap((to) => to.value.map((address) => address.address ?? '')),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html || '',
            messageId: parsed.messageId ?? '',
            headers,
            queueId,
            user: typeof session.user === 'string' ? session.user : null,
          });
          answer(null, `2.0.0 Ok: queued as ${queueId}`);
        },
        () => answer(reply(554, '5.6.0 Error: the message could not be parsed')),
      );
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // A client that vanishes mid-exchange (a test's timeout) is a socket error here, not a failed test.
  server.on('error', () => {});
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    refuseRecipient(address, code = 550, text = '5.1.1 user unknown') {
      refused.set(address.toLowerCase(), { code, text });
    },
    failNext(code = 451, text = '4.3.0 Error: temporary failure, try again later', count = 1) {
      for (let i = 0; i < count; i++) failures.push({ code, text });
    },
    slow(ms) {
      slowMs = ms;
    },
    close() {
      timers.forEach((timer) => clearTimeout(timer));
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
