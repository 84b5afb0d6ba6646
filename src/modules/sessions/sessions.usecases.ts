import { timingSafeEqual } from 'node:crypto';
import { newId } from '../../shared/crypto/ids.ts';
import { normalizeEmail, type AccountsUsecases } from '../accounts/accounts.usecases.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { sessionsErrors } from './sessions.errors.ts';
import type { Database } from '../../shared/db/database.ts';
import { createSessionsRepository } from './sessions.repository.ts';
import { sha256 } from '../../shared/crypto/sha256.ts';

export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 20;
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface Session {
  idHash: string;
  accountId: string;
  email: string;
  csrfToken: string;
}

export interface StartedSession {
  /** Goes into the cookie and nowhere else; the database keeps its SHA-256. */
  id: string;
  expiresAt: Date;
  maxAgeSeconds: number;
}

/** Constant-time comparison, so a forged form cannot learn the token one character at a time. */
export function assertSameToken(expected: string | undefined, presented: string | undefined): void {
  if (!expected || !presented) throw sessionsErrors.csrfInvalid();
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw sessionsErrors.csrfInvalid();
}

export function createSessionsUsecases(deps: {
  db: Database;
  accounts: AccountsUsecases;
  clock: () => Date;
  random: RandomBytes;
  ttlHours: number;
}) {
  const { accounts, clock, random, ttlHours } = deps;
  const sessions = createSessionsRepository(deps.db);

  /** Always a fresh id: a session that existed before log-in (possibly planted) is dropped. */
  async function start(accountId: string, previousId: string | undefined): Promise<StartedSession> {
    if (previousId) await sessions.delete(sha256(previousId));
    const now = clock();
    const id = random(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + ttlHours * 3_600_000);
    await sessions.deleteExpired(now.toISOString());
    await sessions.insert({
      id_hash: sha256(id),
      account_id: accountId,
      csrf_token: random(32).toString('base64url'),
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
    });
    return { id, expiresAt, maxAgeSeconds: ttlHours * 3600 };
  }

  async function assertNotThrottled(email: string, ip: string): Promise<void> {
    const since = new Date(clock().getTime() - THROTTLE_WINDOW_MS).toISOString();
    const byEmail = await sessions.countFailures('email', email, since);
    const byIp = byEmail >= MAX_FAILURES_PER_EMAIL ? 0 : await sessions.countFailures('ip', ip, since);
    if (byEmail >= MAX_FAILURES_PER_EMAIL || byIp >= MAX_FAILURES_PER_IP) {
      throw sessionsErrors.throttled(THROTTLE_WINDOW_MS / 1000);
    }
  }

  return {
    /** The double-submit token of the sign-up and log-in forms, before any session exists. */
    newFormToken: () => random(32).toString('base64url'),

    /** A session for an account that proved itself another way than by log-in (a confirmed sign-up, a reset password). */
    start,

    /**
     * The operator's password reset. It ends every dashboard session of the account: whoever holds
     * one (perhaps the reason for the reset) must log in with the new password.
     */
    async setPassword(email: string, password: string) {
      const account = await accounts.setPassword(email, password);
      return { account, endedSessions: await sessions.deleteForAccount(account.id) };
    },

    /** Ends every dashboard session of the account (a password reset by mail); returns how many. */
    endAll: (accountId: string) => sessions.deleteForAccount(accountId),

    async logIn(input: { email: string; password: string; ip: string; previousId?: string }): Promise<StartedSession> {
      const email = normalizeEmail(input.email);
      await assertNotThrottled(email, input.ip);
      const account = await accounts.authenticatePassword(email, input.password);
      if (!account) {
        const now = clock();
        await sessions.pruneFailures(new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString());
        await sessions.recordFailure({ id: newId('lf', now, random), email, ip: input.ip, created_at: now.toISOString() });
        throw sessionsErrors.invalidCredentials();
      }
      await sessions.clearFailures(email);
      return start(account.id, input.previousId);
    },

    async logOut(id: string | undefined): Promise<void> {
      if (id) await sessions.delete(sha256(id));
    },

    /** The live session behind a cookie value, or null; an expired one is deleted on sight. */
    async resolve(id: string | undefined): Promise<Session | null> {
      if (!id || !SESSION_ID_PATTERN.test(id)) return null;
      const row = await sessions.findByHash(sha256(id));
      if (!row) return null;
      if (Date.parse(row.expires_at) <= clock().getTime()) {
        await sessions.delete(row.id_hash);
        return null;
      }
      return { idHash: row.id_hash, accountId: row.account_id, email: row.email, csrfToken: row.csrf_token };
    },
  };
}

export type SessionsUsecases = ReturnType<typeof createSessionsUsecases>;
