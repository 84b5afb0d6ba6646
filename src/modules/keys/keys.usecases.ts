import type { RandomBytes } from '../../shared/crypto/random.ts';
import { displayPrefixOf, fingerprintOf, generateToken, parseAuthorization } from './keys.tokens.ts';
import { keysErrors } from './keys.errors.ts';
import type { Database } from '../../shared/db/database.ts';
import { createKeysRepository, type KeyRow, type KeySelector } from './keys.repository.ts';
import { newId } from '../../shared/crypto/ids.ts';
import { isAppError } from '../../shared/errors.ts';

export interface Caller {
  accountId: string;
  keyId: string;
  keyPrefix: string;
  /** SHA-256 of the key, as stored: lets the failed-attempt throttle recognise a key that worked. */
  fingerprint: string;
  /** The account's spendable balance when the key was checked (balance less holds). */
  available: number;
}

/** Names of query parameters that people use to pass keys; any of them refuses the call. */
const KEY_QUERY_PARAMETERS = ['api_key', 'apikey', 'key', 'token', 'access_token'];
/**
 * Active keys one account may hold. Enough for one key per integration and environment; without a
 * cap, keys were a way around the per-key rate limit (60 created in 0.4 s).
 */
export const MAX_ACTIVE_KEYS_PER_ACCOUNT = 25;

/** last_used_at is written at most once a minute per key, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export function createKeysUsecases(deps: { db: Database; clock: () => Date; random: RandomBytes }) {
  const { clock, random } = deps;
  const keys = createKeysRepository(deps.db);

  return {
    async createKey(accountId: string, rawName: string): Promise<{ key: KeyRow; token: string }> {
      const name = rawName.trim();
      if (name.length < 1 || name.length > 64) throw keysErrors.invalidName();
      if (await keys.findActiveNamed(accountId, name)) throw keysErrors.nameTaken(name);
      const token = generateToken(random);
      const now = clock();
      const key: KeyRow = {
        id: newId('key', now, random),
        account_id: accountId,
        name,
        prefix: displayPrefixOf(token),
        created_at: now.toISOString(),
        last_used_at: null,
        revoked_at: null,
      };
      try {
        const outcome = await keys.insertCapped({ ...key, fingerprint: fingerprintOf(token) }, MAX_ACTIVE_KEYS_PER_ACCOUNT);
        if (outcome === 'limit_reached') throw keysErrors.limitReached(MAX_ACTIVE_KEYS_PER_ACCOUNT);
      } catch (error) {
        if (isAppError(error)) throw error;
        if (await keys.findActiveNamed(accountId, name)) throw keysErrors.nameTaken(name);
        throw error;
      }
      return { key, token };
    },

    listKeys: (accountId: string) => keys.listByAccount(accountId),

    async revokeKey(accountId: string, where: KeySelector): Promise<KeyRow[]> {
      const revoked = await keys.revoke(accountId, where, clock().toISOString());
      if (revoked.length === 0) throw keysErrors.notFound();
      return revoked;
    },

    /** Checks the key of one API call. Throws the 401 errors of spec section 7. */
    async authenticate(headerValues: readonly string[] | undefined, queryKeys: readonly string[]): Promise<Caller> {
      if (queryKeys.some((name) => KEY_QUERY_PARAMETERS.includes(name.toLowerCase()))) throw keysErrors.keyInUrl();
      const parsed = parseAuthorization(headerValues);
      if (parsed.kind === 'missing') throw keysErrors.missing();
      if (parsed.kind === 'malformed') throw keysErrors.malformed(parsed.reason);
      const fingerprint = fingerprintOf(parsed.token);
      const key = await keys.findActiveByFingerprint(fingerprint);
      if (!key) throw keysErrors.invalid();
      const now = clock();
      if (!key.last_used_at || now.getTime() - Date.parse(key.last_used_at) >= TOUCH_INTERVAL_MS) {
        await keys.touch(key.id, now.toISOString());
      }
      return { accountId: key.account_id, keyId: key.id, keyPrefix: key.prefix, fingerprint, available: Number(key.available) };
    },
  };
}

export type KeysUsecases = ReturnType<typeof createKeysUsecases>;
