import { newId } from '../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import type { PasswordHasher } from '../../shared/crypto/passwords.ts';
import { accountsErrors, MAX_THRESHOLD, MAX_VOICE } from './accounts.errors.ts';
import type { Kysely } from 'kysely';
import { transaction, type Database, type Tables } from '../../shared/db/database.ts';
import { lowBalanceIn } from '../credits/credits.low-balance.usecases.ts';
import { SIGNUP_GRANT_REASON } from '../credits/credits.describe.ts';
import { creditsIn } from '../credits/credits.usecases.ts';
import { createAccountsRepository } from './accounts.repository.ts';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 10;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** A sign-up checked and its password hashed, before anything is looked up or written. */
export interface PreparedSignUp {
  email: string;
  passwordHash: string;
}

/**
 * A dashboard sign-up's account, inside the caller's transaction: the row, then SIGNUP_CREDITS as a
 * grant in its ledger through credits (which owns every balance change), so the account never exists
 * without them. Null when the email is taken, also by a concurrent sign-up (the unique index decides).
 */
export async function openAccountIn(trx: Kysely<Tables>, input: PreparedSignUp & { id: string; at: string; credits: number }) {
  const { id, email, at, credits } = input;
  if (!(await createAccountsRepository(trx).insert({ id, email, password_hash: input.passwordHash, created_at: at }))) return null;
  if (credits > 0) await creditsIn(trx).receive({ accountId: id, kind: 'grant', amount: credits, reason: SIGNUP_GRANT_REASON, at });
  return { id, email };
}

export function createAccountsUsecases(deps: { db: Database; clock: () => Date; random: RandomBytes; passwords: PasswordHasher }) {
  const { clock, random, passwords } = deps;
  const accounts = createAccountsRepository(deps.db);
  /**
   * Verified against when the account is unknown or has no password, so a failed log-in takes as long
   * whether or not the email exists (made with the same hasher, so at the same cost).
   */
  let decoyHash: Promise<string> | undefined;
  async function newPasswordHash(password: string): Promise<string> {
    if (password.length < MIN_PASSWORD_LENGTH) throw accountsErrors.weakPassword();
    return passwords.hash(password);
  }

  return {
    /**
     * The password is hashed before the email is looked up, so creating an account costs the same
     * whether or not the email is taken (sign-up relies on it to reveal nothing).
     */
    async createAccount(rawEmail: string, password?: string) {
      const email = normalizeEmail(rawEmail);
      if (!EMAIL_PATTERN.test(email) || email.length > 254) throw accountsErrors.invalidEmail();
      if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) throw accountsErrors.weakPassword();
      const passwordHash = password === undefined ? null : await passwords.hash(password);
      if (await accounts.findByEmail(email)) throw accountsErrors.emailTaken(email);
      const now = clock();
      const row = { id: newId('acct', now, random), email, password_hash: passwordHash, created_at: now.toISOString() };
      if (!(await accounts.insert(row))) throw accountsErrors.emailTaken(email);
      return { id: row.id, email, balance: 0, created_at: row.created_at };
    },

    /** Checks a sign-up's email and password and hashes the password (argon2id): the slow part, done before any lookup. */
    async prepareSignUp(rawEmail: string, password: string): Promise<PreparedSignUp> {
      const email = normalizeEmail(rawEmail);
      if (!EMAIL_PATTERN.test(email) || email.length > 254) throw accountsErrors.invalidEmail();
      return { email, passwordHash: await newPasswordHash(password) };
    },

    newPasswordHash,

    async replacePasswordHash(accountId: string, passwordHash: string): Promise<void> {
      await accounts.setPasswordHash(accountId, passwordHash);
    },

    /** The password hash a sign-up stored, checked like a log-in's. */
    verifyPassword: (passwordHash: string, password: string) => passwords.verify(passwordHash, password),

    findByEmail: (rawEmail: string) => accounts.findByEmail(normalizeEmail(rawEmail)),

    /** Gives an account a (new) dashboard password; the operator's way in for accounts made without one. */
    async setPassword(rawEmail: string, password: string) {
      const email = normalizeEmail(rawEmail);
      if (password.length < MIN_PASSWORD_LENGTH) throw accountsErrors.weakPassword();
      const account = await accounts.findByEmail(email);
      if (!account) throw accountsErrors.notFound(email);
      await accounts.setPasswordHash(account.id, await passwords.hash(password));
      return account;
    },

    /** The account when the password is right; null otherwise (unknown email, no password, wrong password). */
    async authenticatePassword(rawEmail: string, password: string) {
      const account = await accounts.findCredentials(normalizeEmail(rawEmail));
      if (!account?.password_hash) {
        decoyHash ??= passwords.hash(random(16).toString('hex'));
        await passwords.verify(await decoyHash, password);
        return null;
      }
      const ok = await passwords.verify(account.password_hash, password);
      return ok ? { id: account.id, email: account.email } : null;
    },

    async requireByEmail(rawEmail: string) {
      const account = await accounts.findByEmail(normalizeEmail(rawEmail));
      if (!account) throw accountsErrors.notFound(normalizeEmail(rawEmail));
      return account;
    },

    listAccounts: () => accounts.list(clock().toISOString()),
  };
}

export type AccountsUsecases = ReturnType<typeof createAccountsUsecases>;

/**
 * What an account owner sets for the account itself: the low-balance threshold and the endpoint of
 * account-wide webhook events (`credits.low`). `assertWebhookUrl` is the webhooks module's check, the
 * one a scrape's webhook_url passes.
 */
export function createAccountSettingsUsecases(deps: { db: Database; clock: () => Date; assertWebhookUrl: (url: string) => Promise<void> }) {
  const { db, clock, assertWebhookUrl } = deps;
  const accounts = createAccountsRepository(db);

  return {
    settings: (accountId: string) => accounts.settingsOf(accountId),

    /** The spendable balance and threshold while the first is below the second (the dashboard banner); else null. */
    lowBalance: (accountId: string) => lowBalanceIn(db).status(accountId),

    /**
     * Whole credits from 1, or null (off). A new threshold is checked at once, so a balance already
     * below it alerts now, once, as if it had just crossed; setting the same value again changes nothing.
     */
    async setLowBalanceThreshold(accountId: string, threshold: number | null): Promise<void> {
      if (threshold !== null && (!Number.isSafeInteger(threshold) || threshold < 1 || threshold > MAX_THRESHOLD)) {
        throw accountsErrors.invalidThreshold();
      }
      await transaction(db, async (trx) => {
        const changed = await createAccountsRepository(trx).setThreshold(accountId, threshold);
        if (changed) await lowBalanceIn(trx).check(accountId, clock().toISOString());
      });
    },

    /** How every reply draft should sound (given to the model with each); blank removes it. At most MAX_VOICE characters. */
    async setVoice(accountId: string, voice: string | null): Promise<void> {
      const text = voice?.trim() || null;
      if (text !== null && [...text].length > MAX_VOICE) throw accountsErrors.voiceTooLong();
      await accounts.setVoice(accountId, text);
    },

    /** Null (or empty) removes the endpoint: `credits.low` alerts then only show on the dashboard. */
    async setWebhookUrl(accountId: string, url: string | null): Promise<void> {
      const endpoint = url?.trim() || null;
      if (endpoint !== null) await assertWebhookUrl(endpoint);
      await accounts.setWebhookUrl(accountId, endpoint);
    },
  };
}

/** The account's voice for drafts (null: none), read by generate for every draft. */
export const voiceOf = (db: Kysely<Tables>, accountId: string) => createAccountsRepository(db).voiceOf(accountId);

export type AccountSettingsUsecases = ReturnType<typeof createAccountSettingsUsecases>;
