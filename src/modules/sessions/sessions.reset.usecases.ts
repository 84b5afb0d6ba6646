import { normalizeEmail, type AccountsUsecases } from '../accounts/accounts.usecases.ts';
import { sessionsErrors } from './sessions.errors.ts';
import type { AccountLinks } from './sessions.links.usecases.ts';
import type { SessionsUsecases, StartedSession } from './sessions.usecases.ts';

/** An address as the reset form may send it: anything longer or without an @ is not one, and is simply not mailed. */
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Setting a new password through a mailed link (docs/dashboard.md, "Password reset"). Asking answers
 * alike for every address (the job mails only an account's); the link works once, for an hour, and
 * setting the password ends every session of the account before it signs this browser in. Without
 * mail there is no such link: the operator sets passwords (`subpilot accounts set-password`).
 */
export function createPasswordResetUsecases(deps: { accounts: AccountsUsecases; sessions: SessionsUsecases; links: AccountLinks }) {
  const { accounts, sessions, links } = deps;

  return {
    /** Whether this server mails reset links; without it the page says to ask the operator. */
    byMail: links.mailConfigured,

    /** Queues the mail of a link if the address has an account; answers the same either way. */
    async request(rawEmail: string): Promise<void> {
      const email = normalizeEmail(rawEmail);
      if (!links.mailConfigured || !LOOKS_LIKE_EMAIL.test(email) || email.length > 254) return;
      await links.request('reset', email);
    },

    /** The address the link was mailed to, shown above the new-password form; 410 for a dead link. */
    async inspect(token: string): Promise<{ email: string }> {
      return { email: (await links.find('reset', token)).email };
    },

    /**
     * Sets the new password (hashed before the link is used, so a short one leaves the link working),
     * ends every dashboard session of the account, and starts one for this browser.
     */
    async reset(input: { token: string; password: string; previousId?: string }): Promise<StartedSession> {
      const row = await links.find('reset', input.token);
      if (row.account_id === null) throw sessionsErrors.linkExpired('reset');
      const passwordHash = await accounts.newPasswordHash(input.password);
      await links.consume(row);
      await accounts.replacePasswordHash(row.account_id, passwordHash);
      await sessions.endAll(row.account_id);
      return sessions.start(row.account_id, input.previousId);
    },
  };
}

export type PasswordResetUsecases = ReturnType<typeof createPasswordResetUsecases>;
