import type { Logger } from 'pino';
import type { ChatOutcome } from '../../integrations/chat/chat.types.ts';
import type { MailMessage } from '../../integrations/mail/mail.client.ts';
import { newId } from '../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { sha256 } from '../../shared/crypto/sha256.ts';
import type { Kysely } from 'kysely';
import type { Database, Tables } from '../../shared/db/database.ts';
import type { JobQueue } from '../../shared/jobs/jobs.queue.ts';
import type { AccountsUsecases } from '../accounts/accounts.usecases.ts';
import { sessionsErrors } from './sessions.errors.ts';
import { alreadyRegisteredMail, confirmSignUpMail, passwordResetMail } from './sessions.mail.ts';
import type { AccountTokensTable, TokenPurpose } from './sessions.tables.ts';
import { createAccountTokensRepository } from './sessions.tokens.repository.ts';

/** The jobs that write and send the mails of sign-up and password reset. */
export const ACCOUNT_MAIL_QUEUE = 'account-mail';
export const SIGNUP_LINK_HOURS = 24;
export const RESET_LINK_MINUTES = 60;
/** Mails of one purpose to one address in an hour: enough for a person, too few to flood a stranger's inbox through our forms. */
const MAX_MAILS_PER_HOUR = 5;
const HOUR_MS = 3_600_000;
const LIFETIME_MS: Record<TokenPurpose, number> = { signup: SIGNUP_LINK_HOURS * HOUR_MS, reset: RESET_LINK_MINUTES * 60_000 };
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** SMTP (SMTP_URL, MAIL_FROM) and PUBLIC_URL, where a mail's links lead; without both nothing is mailed. */
export interface LinkMailer {
  send(to: string, mail: MailMessage): Promise<ChatOutcome>;
  publicUrl: string;
}

export type LinkRow = AccountTokensTable;

/**
 * The links mailed for sign-up and password reset. A form's answer does the same work whatever the
 * address (a row and a job, no lookup), so neither its words nor its time tell whether the address has
 * an account: the job decides, later, what to mail. The job makes the link's token (32 random bytes),
 * stores its SHA-256 and sends the mail; a retried job makes a new one, so the link of a mail that
 * did arrive after all stops working, and the newest mail always holds a working one. Each new link
 * of a purpose replaces the older ones for that address.
 */
export function createAccountLinks(deps: {
  db: Database;
  jobs: JobQueue;
  clock: () => Date;
  random: RandomBytes;
  accounts: AccountsUsecases;
  mailer: LinkMailer | null;
  log: Pick<Logger, 'warn'>;
}) {
  const { jobs, clock, random, accounts, mailer } = deps;
  const repo = createAccountTokensRepository(deps.db);

  async function writeMail(row: LinkRow, send: LinkMailer): Promise<{ mail: MailMessage; link: boolean } | null> {
    const host = new URL(send.publicUrl).hostname;
    const account = await accounts.findByEmail(row.email);
    if (row.purpose === 'reset' && !account) return null;
    if (row.purpose === 'signup' && account) {
      return { mail: { ...alreadyRegisteredMail(send.publicUrl), messageId: `<${row.id}@${host}>` }, link: false };
    }
    const token = random(32).toString('base64url');
    const tokenHash = sha256(token);
    const expiresAt = new Date(clock().getTime() + LIFETIME_MS[row.purpose]).toISOString();
    await repo.setToken(row.id, { tokenHash, accountId: account?.id ?? null, expiresAt });
    await repo.supersede(row.purpose, row.email, row.id);
    const parts =
      row.purpose === 'signup'
        ? confirmSignUpMail(send.publicUrl, `${send.publicUrl}/dashboard/signup/confirm/${token}`, SIGNUP_LINK_HOURS)
        : passwordResetMail(send.publicUrl, `${send.publicUrl}/dashboard/password-reset/${token}`, RESET_LINK_MINUTES);
    // Named after the link too: a retry's mail has a new link, and a server that dropped it as a copy of the first would leave a dead one.
    return { mail: { ...parts, messageId: `<${row.id}.${tokenHash.slice(0, 12)}@${host}>` }, link: true };
  }

  return {
    /** Whether links can be mailed here: sign-up then confirms the address, and passwords are reset by mail. */
    mailConfigured: mailer !== null,

    /** Records what the form asked and queues its mail; the same work whatever the address. */
    async request(purpose: TokenPurpose, email: string, signUp?: { passwordHash: string; browserHash: string }): Promise<void> {
      const now = clock();
      await repo.deleteExpired(now.toISOString());
      const id = newId('atk', now, random);
      await repo.insert({
        id,
        purpose,
        email,
        account_id: null,
        password_hash: signUp?.passwordHash ?? null,
        browser_hash: signUp?.browserHash ?? null,
        token_hash: null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + LIFETIME_MS[purpose]).toISOString(),
        mailed_at: null,
        used_at: null,
      });
      await jobs.send(ACCOUNT_MAIL_QUEUE, { token_id: id }, { retryLimit: 5, retryDelaySeconds: 60, expireSeconds: 120 });
    },

    /**
     * The job: writes and sends the mail a request is due, if any (none for a reset of an unknown
     * address, or past the hourly limit). A failure worth another try throws, and the queue retries.
     */
    async mail(id: string): Promise<void> {
      const row = await repo.find(id);
      const now = clock();
      if (!mailer || !row || row.mailed_at !== null || row.used_at !== null || Date.parse(row.expires_at) <= now.getTime()) return;
      if ((await repo.mailedSince(row.purpose, row.email, new Date(now.getTime() - HOUR_MS).toISOString())) >= MAX_MAILS_PER_HOUR) {
        deps.log.warn({ purpose: row.purpose }, `an address asked for more than ${MAX_MAILS_PER_HOUR} mails in an hour; this one is not sent`);
        return repo.delete(id);
      }
      const written = await writeMail(row, mailer);
      if (!written) return repo.delete(id);
      const outcome = await mailer.send(row.email, written.mail);
      if (outcome.outcome === 'sent') return repo.markMailed(id, clock().toISOString(), written.link);
      const why = outcome.outcome === 'gone' ? outcome.reason : outcome.outcome === 'failed' ? outcome.error : 'the mail server asked us to wait';
      if (outcome.outcome !== 'gone' && (outcome.outcome !== 'failed' || outcome.retryable)) throw new Error(`the ${row.purpose} mail was not sent: ${why}`);
      deps.log.warn({ purpose: row.purpose }, `the ${row.purpose} mail cannot be sent: ${why}`);
    },

    /** The unused, unexpired link behind a token; anything else is 410 in words. */
    async find(purpose: TokenPurpose, token: string): Promise<LinkRow> {
      const row = TOKEN_PATTERN.test(token) ? await repo.findByToken(purpose, sha256(token)) : undefined;
      if (!row || row.used_at !== null || Date.parse(row.expires_at) <= clock().getTime()) throw sessionsErrors.linkExpired(purpose);
      return row;
    },

    /** Uses the link, once (in the caller's transaction, if given): a second request with it, even at the same moment, gets 410. */
    async consume(row: LinkRow, trx: Kysely<Tables> = deps.db): Promise<void> {
      if (!(await createAccountTokensRepository(trx).consume(row.id, clock().toISOString()))) throw sessionsErrors.linkExpired(row.purpose);
    },
  };
}

export type AccountLinks = ReturnType<typeof createAccountLinks>;
