import type { Logger } from 'pino';
import type { Mailer } from '../integrations/mail/mail.client.ts';
import type { Config } from '../shared/config/config.ts';
import type { RandomBytes } from '../shared/crypto/random.ts';
import type { Database } from '../shared/db/database.ts';
import type { JobQueue } from '../shared/jobs/jobs.queue.ts';
import type { AccountsUsecases } from '../modules/accounts/accounts.usecases.ts';
import { ACCOUNT_MAIL_QUEUE, createAccountLinks } from '../modules/sessions/sessions.links.usecases.ts';
import { createPasswordResetUsecases } from '../modules/sessions/sessions.reset.usecases.ts';
import { createSignupUsecases } from '../modules/sessions/sessions.signup.usecases.ts';
import type { SessionsUsecases } from '../modules/sessions/sessions.usecases.ts';

/**
 * The mails of sign-up and password reset, sent with the server's one SMTP client (alerting.ts makes
 * it from SMTP_URL and MAIL_FROM; null without them). Their links need PUBLIC_URL too, but, unlike
 * email destinations, no SECRET_KEY: they are random and stored hashed.
 */
export function createAccountMail(
  config: Config,
  base: { db: Database; jobs: JobQueue; clock: () => Date; random: RandomBytes; log: Logger; accounts: AccountsUsecases; sessions: SessionsUsecases },
  mailer: Pick<Mailer, 'send'> | null,
) {
  const links = createAccountLinks({ ...base, mailer: mailer && config.publicUrl ? { send: mailer.send, publicUrl: config.publicUrl } : null });
  return {
    /** Sign-up: at once without mail, through a mailed confirmation link with it (docs/dashboard.md). */
    signup: createSignupUsecases({ ...base, links, allowSignup: config.allowSignup, signupCredits: config.signupCredits }),
    /** "Forgot password?": a mailed link, where the server sends mail. */
    passwordReset: createPasswordResetUsecases({ ...base, links }),
    /** `mail(id)` is the job that writes and sends the mail a form queued (tests call it for the rows of account_tokens). */
    links,
    /** Sends the mails the forms queued (the worker). */
    work: () => base.jobs.work(ACCOUNT_MAIL_QUEUE, 1, (data) => links.mail(String(data.token_id))),
  };
}
