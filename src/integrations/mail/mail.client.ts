/**
 * Sends one alert mail over SMTP with Nodemailer (delivery-2026.md, "Email": nodemailer remains the
 * choice when SMTP is the transport, and Postmark, SES and Resend all accept SMTP) and classifies
 * what the server said as a chat post's answer is classified (chat.types.ts), so that the outbox
 * treats a mail like a Slack message: sent (with a receipt), gone (switch the destination off), or
 * failed (retry later, or not). SMTP has no "wait this long", so a mail is never `rate_limited`:
 * a server that wants us to slow down answers 421 or 4yz, which is a retryable failure. One exchange,
 * never repeated here: retries and pacing belong to the outbox (issue 43).
 *
 * SMTP_URL holds the login's password (and for Postmark the user is the server token too): no
 * outcome, error or thrown message built here repeats the URL, its user or its password, and a reply
 * that echoes them has them cut out. What the replies mean, with sources, is at `classifySmtp`.
 */
import nodemailer from 'nodemailer';
import { ANSWER_LIMIT, clip, redact, seconds } from '../chat/chat.answers.ts';
import type { ChatOutcome } from '../chat/chat.types.ts';

export type { ChatOutcome } from '../chat/chat.types.ts';

export interface MailMessage {
  subject: string;
  text: string;
  html: string;
  /**
   * Ours, with angle brackets: `<out_…@host>`, named after the outbox row, so that a mail sent again
   * after a crash or a timeout is the same mail to the receiving server (RFC 5322 §3.6.4).
   */
  messageId: string;
  /**
   * The one-click unsubscribe link (an https URL): sets `List-Unsubscribe: <url>` and
   * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058 §3.1; Gmail and Yahoo require both
   * of bulk senders since February 2024, delivery-2026.md).
   */
  unsubscribeUrl?: string;
  headers?: Record<string, string>;
}

export interface MailerOptions {
  /** smtp:// or smtps://, with user and password (config/channels.ts checks the scheme). */
  smtpUrl: string;
  /** MAIL_FROM: an address, or a name and <address>. */
  from: string;
  /** The whole exchange, connecting to the final reply. */
  timeoutMs: number;
}

export interface Mailer {
  send(to: string, mail: MailMessage): Promise<ChatOutcome>;
  /** Connects and logs in without sending; throws, in words without the password, when it cannot. */
  verify(): Promise<void>;
  close(): void;
}

/** How much of the reply a reason or an error quotes. */
const QUOTE_LIMIT = 200;
/** A user or password shorter than this is not cut out of replies: it would cut ordinary words. */
const SECRET_MIN = 4;

export function createMailer({ smtpUrl, from, timeoutMs }: MailerOptions): Mailer {
  const secrets = secretsOf(smtpUrl);
  let transport: ReturnType<typeof createTransport>;
  try {
    transport = createTransport(smtpUrl, timeoutMs);
  } catch {
    // The URL parser's error carries the input (TypeError's `input`), password and all.
    throw new Error('SMTP_URL is not a valid smtp:// or smtps:// URL (the value is not shown)');
  }
  const cut = (text: string) => redact(text, secrets);
  const context = { timeoutMs };

  return {
    async send(to, mail) {
      const unsubscribe = unsubscribeHeaders(mail.unsubscribeUrl);
      if (unsubscribe === null) return { outcome: 'failed', status: null, answer: '', retryable: false, error: 'the unsubscribe link is not an http(s) URL' };
      try {
        const info = await transport.sendMail({
          from,
          // One address, as given: a string with a comma in it would be parsed into two recipients.
          to: [{ name: '', address: to }],
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: { ...mail.headers, ...unsubscribe },
          // The whole exchange within timeoutMs, as a chat post: the per-step timeouts alone would
          // let seven slow steps run past the outbox's 60 s claim on the attempt.
          signal: AbortSignal.timeout(timeoutMs),
        });
        return classifySmtp({ sent: true, response: cut(String(info.response ?? '')) }, { ...context, messageId: mail.messageId });
      } catch (error) {
        return classifySmtp(fromError(error, cut), { ...context, messageId: mail.messageId });
      }
    },
    async verify() {
      try {
        await transport.verify();
      } catch (error) {
        const outcome = classifySmtp(fromError(error, cut), { ...context, messageId: '' });
        // No `cause`: nodemailer's error is not cleaned of the login, and a logger would print it.
        throw new Error(outcome.outcome === 'gone' ? outcome.reason : outcome.outcome === 'failed' ? outcome.error : 'the mail server could not be checked');
      }
    },
    close() {
      transport.close();
    },
  };
}

/**
 * Not pooled: a connection per mail. Alerts are paced at one a second per address and sent by the
 * outbox's few workers, so the handshake saved by a pool is small; a pool's idle connection is cut by
 * the server after its timeout (RFC 5321 §4.5.3.2.7: five minutes) and the mail queued on it then
 * fails for a reason of its own, while a connection per mail makes each outcome one exchange's and
 * lets the abort below end exactly that exchange. (An operator who wants a pool can still add
 * `?pool=true` to SMTP_URL: nodemailer reads the URL's options over these.)
 */
function createTransport(smtpUrl: string, timeoutMs: number) {
  return nodemailer.createTransport({
    // The timeouts go with the URL, not as createTransport's second argument: that one holds a message's defaults.
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // No alert attaches a file or a URL: nothing in a message may make the server read either.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
}

/** RFC 8058 §3.1 for an https link; a plain http one (a development server) gets RFC 2369's header only. */
function unsubscribeHeaders(url: string | undefined): Record<string, string> | null {
  if (url === undefined) return {};
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  // URL's serialisation percent-encodes spaces, '<' and '>', so the link cannot end the brackets early.
  if (parsed.protocol === 'https:') return { 'List-Unsubscribe': `<${parsed.href}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  return parsed.protocol === 'http:' ? { 'List-Unsubscribe': `<${parsed.href}>` } : null;
}

/** What nodemailer handed back: its SentMessageInfo's reply, or the fields of its error (errors.d.ts). */
export type SmtpResult =
  | { sent: true; response: string }
  | { sent: false; code?: string; originalCode?: string; responseCode?: number; response?: string; command?: string };

/** Failures without a reply from which a later attempt can recover (nodemailer's error codes). */
const NETWORK = new Set(['ESOCKET', 'ECONNECTION', 'EDNS', 'ETLS', 'EPROXY', 'EREQUIRETLS']);

/**
 * What the server's answer means for the destination. Reply codes: RFC 5321 §4.2.1 (2yz done, 4yz
 * "transient negative", 5yz "permanent negative"), §4.2.2-3; enhanced codes (`5.1.1`): RFC 3463, whose
 * X.1.* are addressing statuses and X.2.1 "mailbox disabled, not accepting messages".
 *
 * - Accepted: `sent`, status 250. The receipt is the server's queue id when its reply names one —
 *   "queued as 4F3A21C0E5" (Postfix, SendGrid) or "id=1qABCD-000123-4E" (Exim) — and otherwise our
 *   Message-ID; the two are told apart by the Message-ID's angle brackets.
 * - `gone` (a hard bounce: switch the destination off) only when the refusal is about the recipient's
 *   address, with one recipient per mail: a 5yz to RCPT TO with an enhanced code X.1.* (not X.1.7 and
 *   X.1.8, which are the sender's) or X.2.1, or without an enhanced code 550, 551 or 553 (§4.2.2:
 *   mailbox unavailable, user not local, mailbox name not allowed); the same enhanced codes after DATA.
 *   A refusal that mentions relaying ("554 5.7.1 Relay access denied", Exim's "550 relay not
 *   permitted") is about our login, not the address, whatever its code.
 * - Our side's setup, retried: a refused or missing login (AUTH's 535, 534, 454; 530 "authentication
 *   required"), a refused sender (MAIL FROM) and relaying. A wrong SMTP password is the operator's
 *   fault and no recipient's: it never switches a destination off, and it is retried (with the
 *   outbox's backoff, eight tries over about an hour) so that alerts queued while the
 *   operator fixes SMTP_URL or MAIL_FROM still go out once it is fixed.
 * - 4yz (421, 450, 451 greylisting, 452) and 503 (bad sequence: a new connection may succeed; so
 *   nodemailer's `permanent`): retried. No connection, a timeout, a broken TLS handshake: retried.
 * - Any other 5yz (552 too big, 554 policy or spam, 5.7.* at RCPT TO): failed, not retried — the
 *   same message would be refused again.
 * - Nodemailer's own refusals without a reply (EENVELOPE with no recipient, EMESSAGE…): our bug, not retried.
 */
export function classifySmtp(result: SmtpResult, context: { messageId: string; timeoutMs: number }): ChatOutcome {
  const answer = clip(oneLine(result.response ?? ''), ANSWER_LIMIT);
  const quoted = clip(answer, QUOTE_LIMIT);
  if (result.sent) {
    const receipt = queueIdOf(answer) ?? context.messageId;
    return { outcome: 'sent', status: 250, answer, messageId: receipt || null };
  }
  const failed = (retryable: boolean, error: string, status = result.responseCode ?? null): ChatOutcome => ({ outcome: 'failed', status, answer, retryable, error });
  const code = result.responseCode ?? null;
  const command = (result.command ?? '').toUpperCase();
  if (result.code === 'ETIMEDOUT' || result.code === 'EABORT') return failed(true, `the mail server did not answer within ${seconds(context.timeoutMs)}`, null);
  if (code === null) {
    const why = systemCode(result.originalCode) ?? systemCode(result.code);
    const said = why ? ` (${why})` : '';
    if (result.code === 'EAUTH' || result.code === 'ENOAUTH') return failed(true, `could not log in to the mail server${said}: check the user and password of SMTP_URL`);
    if (result.code === 'ETLS' || /SSL|TLS|CERT/.test(result.originalCode ?? '')) return failed(true, `could not set up TLS with the mail server${said}`);
    if (result.code === 'ECONNECTION') return failed(true, 'the mail server closed the connection');
    if (NETWORK.has(result.code ?? '')) return failed(true, `could not connect to the mail server${said}`);
    return failed(false, `the mail could not be sent${said}`);
  }
  const enhanced = enhancedOf(answer, code);
  if (command.startsWith('AUTH') || [454, 534, 535].includes(code)) {
    return failed(true, `the mail server refused our login: ${quoted}; check the user and password of SMTP_URL`);
  }
  if (code === 530) return failed(true, `the mail server wants a login that SMTP_URL does not give: ${quoted}`);
  if (code >= 400 && code < 500) return failed(true, `the mail server deferred the mail: ${quoted}`);
  if (code === 503) return failed(true, `the mail server answered out of sequence: ${quoted}`);
  if (code < 500) return failed(true, `the mail server answered unexpectedly: ${quoted}`);
  if (/\brelay/i.test(answer)) return failed(true, `the mail server will not relay our mail: ${quoted}; check the login in SMTP_URL`);
  if (command === 'MAIL FROM') return failed(true, `the mail server refused our sender address (MAIL_FROM): ${quoted}`);
  const addressStatus = enhanced !== null && ((enhanced.subject === 1 && enhanced.detail !== 7 && enhanced.detail !== 8) || (enhanced.subject === 2 && enhanced.detail === 1));
  const atRcpt = command === 'RCPT TO';
  if (addressStatus || (atRcpt && enhanced === null && [550, 551, 553].includes(code))) {
    return { outcome: 'gone', status: code, answer, reason: `the mail server refused the address: ${quoted}` };
  }
  if (atRcpt) return failed(false, `the mail server refused the mail for this address: ${quoted}`);
  return failed(false, `the mail server refused the message: ${quoted}`);
}

/** The fields classifySmtp reads, the reply cleaned of the login before anything quotes it. */
function fromError(error: unknown, redact: (text: string) => string): SmtpResult {
  const fields = (error ?? {}) as { code?: unknown; originalCode?: unknown; responseCode?: unknown; response?: unknown; command?: unknown };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const response = text(fields.response);
  return {
    sent: false,
    code: text(fields.code),
    originalCode: text(fields.originalCode),
    responseCode: typeof fields.responseCode === 'number' ? fields.responseCode : undefined,
    response: response === undefined ? undefined : redact(response),
    command: text(fields.command),
  };
}

/**
 * A multi-line reply as one line: "550-5.1.1 The email account…\n550 5.1.1 …gsmtp" (Gmail's) reads
 * "550 5.1.1 The email account… …gsmtp", the code and enhanced code once (RFC 5321 §4.2.1's continuation lines).
 */
function oneLine(response: string): string {
  const lines = response.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) return '';
  const head = lines[0]!.replace(/^(\d{3})-/, '$1 ');
  const rest = lines.slice(1).map((line) => line.replace(/^\d{3}[ -](?:[245]\.\d{1,3}\.\d{1,3}\s)?/, '').trim());
  return [head.trim(), ...rest].join(' ').replace(/\s+/g, ' ');
}

/** RFC 3463 §2: class.subject.detail after the reply code, its class the reply's first digit. */
function enhancedOf(answer: string, code: number): { subject: number; detail: number } | null {
  const match = /^\d{3}[ -]([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(answer);
  if (!match || Number(match[1]) !== Math.floor(code / 100)) return null;
  return { subject: Number(match[2]), detail: Number(match[3]) };
}

function queueIdOf(answer: string): string | null {
  const match = /\bqueued as <?([A-Za-z0-9._@-]{4,100})>?/i.exec(answer) ?? /\bid=([A-Za-z0-9._-]{4,100})/.exec(answer);
  return match ? match[1]! : null;
}

/** ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED: says why without the address. */
function systemCode(code: string | undefined): string | null {
  return code !== undefined && /^[A-Z0-9_]{2,60}$/.test(code) ? code : null;
}

/** The URL and its login, in the forms a reply could echo, longest first. */
function secretsOf(smtpUrl: string): string[] {
  const found = [smtpUrl];
  try {
    const { username, password } = new URL(smtpUrl);
    for (const part of [username, password]) found.push(part, safeDecode(part));
  } catch {
    // Not a URL: createMailer refuses it, and only the whole of it is known.
  }
  return [...new Set(found)].filter((secret) => secret.length >= SECRET_MIN).sort((a, b) => b.length - a.length);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
