import { hash } from 'argon2';
import { newId } from '../../app/ids.ts';
import type { RandomBytes } from '../keys/keys.tokens.ts';
import { accountsErrors } from './accounts.errors.ts';
import type { AccountsRepository } from './accounts.repository.ts';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 10;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function createAccountsUsecases(deps: { accounts: AccountsRepository; clock: () => Date; random: RandomBytes }) {
  const { accounts, clock, random } = deps;

  return {
    async createAccount(rawEmail: string, password?: string) {
      const email = normalizeEmail(rawEmail);
      if (!EMAIL_PATTERN.test(email) || email.length > 254) throw accountsErrors.invalidEmail();
      if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) throw accountsErrors.weakPassword();
      if (await accounts.findByEmail(email)) throw accountsErrors.emailTaken(email);
      const now = clock();
      const row = {
        id: newId('acct', now, random),
        email,
        password_hash: password === undefined ? null : await hash(password, { type: 2 }),
        created_at: now.toISOString(),
      };
      await accounts.insert(row);
      return { id: row.id, email, balance: 0, created_at: row.created_at };
    },

    async requireByEmail(rawEmail: string) {
      const account = await accounts.findByEmail(normalizeEmail(rawEmail));
      if (!account) throw accountsErrors.notFound(normalizeEmail(rawEmail));
      return account;
    },
  };
}

export type AccountsUsecases = ReturnType<typeof createAccountsUsecases>;
