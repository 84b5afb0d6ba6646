import { hash, verify } from 'argon2';
import { newId } from '../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { accountsErrors } from './accounts.errors.ts';
import type { Database } from '../../shared/db/database.ts';
import { createAccountsRepository } from './accounts.repository.ts';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 10;

const hashPassword = (password: string) => hash(password, { type: 2 });

/**
 * Verified against when the account is unknown or has no password, so a failed log-in takes as long
 * whether or not the email exists.
 */
let decoyHash: Promise<string> | undefined;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function createAccountsUsecases(deps: { db: Database; clock: () => Date; random: RandomBytes }) {
  const { clock, random } = deps;
  const accounts = createAccountsRepository(deps.db);

  return {
    /**
     * The password is hashed before the email is looked up, so creating an account costs the same
     * whether or not the email is taken (sign-up relies on it to reveal nothing).
     */
    async createAccount(rawEmail: string, password?: string) {
      const email = normalizeEmail(rawEmail);
      if (!EMAIL_PATTERN.test(email) || email.length > 254) throw accountsErrors.invalidEmail();
      if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) throw accountsErrors.weakPassword();
      const passwordHash = password === undefined ? null : await hashPassword(password);
      if (await accounts.findByEmail(email)) throw accountsErrors.emailTaken(email);
      const now = clock();
      const row = { id: newId('acct', now, random), email, password_hash: passwordHash, created_at: now.toISOString() };
      if (!(await accounts.insert(row))) throw accountsErrors.emailTaken(email);
      return { id: row.id, email, balance: 0, created_at: row.created_at };
    },

    /** Gives an account a (new) dashboard password; the operator's way in for accounts made without one. */
    async setPassword(rawEmail: string, password: string) {
      const email = normalizeEmail(rawEmail);
      if (password.length < MIN_PASSWORD_LENGTH) throw accountsErrors.weakPassword();
      const account = await accounts.findByEmail(email);
      if (!account) throw accountsErrors.notFound(email);
      await accounts.setPasswordHash(account.id, await hashPassword(password));
      return account;
    },

    /** The account when the password is right; null otherwise (unknown email, no password, wrong password). */
    async authenticatePassword(rawEmail: string, password: string) {
      const account = await accounts.findCredentials(normalizeEmail(rawEmail));
      if (!account?.password_hash) {
        decoyHash ??= hashPassword(random(16).toString('hex'));
        await verify(await decoyHash, password).catch(() => false);
        return null;
      }
      const ok = await verify(account.password_hash, password).catch(() => false);
      return ok ? { id: account.id, email: account.email } : null;
    },

    async requireByEmail(rawEmail: string) {
      const account = await accounts.findByEmail(normalizeEmail(rawEmail));
      if (!account) throw accountsErrors.notFound(normalizeEmail(rawEmail));
      return account;
    },

    listAccounts: () => accounts.list(),
  };
}

export type AccountsUsecases = ReturnType<typeof createAccountsUsecases>;
