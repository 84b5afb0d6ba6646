import { timingSafeEqual } from 'node:crypto';
import { newId } from '../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { sha256 } from '../../shared/crypto/sha256.ts';
import { transaction, type Database } from '../../shared/db/database.ts';
import { accountsErrors } from '../accounts/accounts.errors.ts';
import { openAccountIn, type AccountsUsecases, type PreparedSignUp } from '../accounts/accounts.usecases.ts';
import { sessionsErrors } from './sessions.errors.ts';
import type { AccountLinks, LinkRow } from './sessions.links.usecases.ts';
import type { SessionsUsecases, StartedSession } from './sessions.usecases.ts';

/** What a sign-up answers: a session (no mail here), or "check your inbox" for every address (mail). */
export type SignUpOutcome = { started: StartedSession } | { mailed: string };

/** Whether the browser holding `formToken` is the one that signed up (its form cookie then). */
function sameBrowser(row: LinkRow, formToken: string | undefined): boolean {
  if (!row.browser_hash || !formToken) return false;
  return timingSafeEqual(Buffer.from(row.browser_hash), Buffer.from(sha256(formToken)));
}

/**
 * Dashboard sign-up (docs/dashboard.md, "Sign-up"). Where the server sends mail, the form answers
 * alike for every address and the account is made when the mailed link is followed: the address is
 * then known to be the person's, and a stranger learns nothing about who is registered. Without mail,
 * the account is made and signed in at once, and an address that has one is refused (which tells).
 * Either way a new account starts with SIGNUP_CREDITS, granted in the transaction that makes it.
 */
export function createSignupUsecases(deps: {
  db: Database;
  clock: () => Date;
  random: RandomBytes;
  accounts: AccountsUsecases;
  sessions: SessionsUsecases;
  links: AccountLinks;
  allowSignup: boolean;
  signupCredits: number;
}) {
  const { db, clock, random, accounts, sessions, links, allowSignup } = deps;

  const assertAllowed = () => {
    if (!allowSignup) throw accountsErrors.signupDisabled();
  };
  const accountFor = (prepared: PreparedSignUp, trx: Parameters<typeof openAccountIn>[0]) => {
    const now = clock();
    return openAccountIn(trx, { ...prepared, id: newId('acct', now, random), at: now.toISOString(), credits: deps.signupCredits });
  };

  return {
    allowed: allowSignup,
    /** SIGNUP_CREDITS: what a new account starts with. */
    credits: deps.signupCredits,

    /**
     * Checks the email and password (422 says nothing about who is registered), hashes the password,
     * then either queues the mail (the same work for every address) or makes the account and its session.
     * `formToken` is the browser's form cookie: that browser confirms later without typing the password.
     */
    async signUp(input: { email: string; password: string; formToken: string; previousId?: string }): Promise<SignUpOutcome> {
      assertAllowed();
      const prepared = await accounts.prepareSignUp(input.email, input.password);
      if (links.mailConfigured) {
        await links.request('signup', prepared.email, { passwordHash: prepared.passwordHash, browserHash: sha256(input.formToken) });
        return { mailed: prepared.email };
      }
      const account = await transaction(db, (trx) => accountFor(prepared, trx));
      if (!account) throw sessionsErrors.signupRefused();
      return { started: await sessions.start(account.id, input.previousId) };
    },

    /** What the confirmation page shows: the address, and whether to ask for the password (another browser). */
    async inspect(token: string, formToken: string | undefined) {
      assertAllowed();
      const row = await links.find('signup', token);
      return { email: row.email, asksPassword: !sameBrowser(row, formToken) };
    },

    /**
     * Makes the account the link was mailed for and signs it in. In another browser than the one that
     * signed up, the password chosen then is asked: a link alone (a stranger signed up with someone's
     * address, who follows it) must not open an account whose password the stranger knows.
     */
    async confirm(input: { token: string; formToken?: string; password?: string; previousId?: string }): Promise<StartedSession> {
      assertAllowed();
      const row = await links.find('signup', input.token);
      const passwordHash = row.password_hash;
      if (passwordHash === null) throw sessionsErrors.linkExpired('signup');
      if (!sameBrowser(row, input.formToken) && !(await accounts.verifyPassword(passwordHash, input.password ?? ''))) {
        throw sessionsErrors.signupPasswordWrong();
      }
      const prepared = { email: row.email, passwordHash };
      const account = await transaction(db, async (trx) => {
        await links.consume(row, trx);
        return accountFor(prepared, trx);
      });
      if (!account) throw sessionsErrors.alreadyRegistered();
      return sessions.start(account.id, input.previousId);
    },
  };
}

export type SignupUsecases = ReturnType<typeof createSignupUsecases>;
