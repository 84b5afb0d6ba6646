import type { RandomBytes } from '../../shared/crypto/random.ts';
import { displayPrefixOf, fingerprintOf, generateToken, parseAuthorization } from './keys.tokens.ts';
import { keysErrors } from './keys.errors.ts';
import { holdsKeyInUrl } from './keys.url.ts';
import type { Database } from '../../shared/db/database.ts';
import { createKnownKeys, type KnownKeyRow } from './keys.known.ts';
import { createKeysRepository, type KeyRow, type KeySelector } from './keys.repository.ts';
import { newId } from '../../shared/crypto/ids.ts';
import { isAppError } from '../../shared/errors.ts';
import { dayOf, utcDayStart } from '../../shared/calendar.ts';
import { formatScopes, parseScopes, scopesOf, type Scope } from './keys.scopes.ts';
import type { Via } from '../../shared/via.ts';

/**
 * Through which interface a call made with a key came: `api`, the REST API under /api/v1; `mcp`, the
 * MCP server acting with the key. Written on what the call creates, so the ledger can say where spend
 * came from. The dashboard acts with a session, never a key, so it is no caller's channel.
 */
export type CallerVia = Extract<Via, 'api' | 'mcp'>;

export interface Caller {
  accountId: string;
  keyId: string;
  keyPrefix: string;
  /** What the key may do: every scope for keys made without a choice. */
  scopes: Scope[];
  /** Whole credits the key may spend per UTC month, holds included; null: no limit. */
  monthlyCreditLimit: number | null;
  /** `authenticate` sets `api`; the MCP server hands the usecases `{ ...caller, via: 'mcp' }`. */
  via: CallerVia;
}

/** What an owner may set on a new key; left out or null: every scope, no limit, no expiry. */
export type KeyControls = { scopes?: Scope[] | null; monthlyCreditLimit?: number | null; expiresAt?: string | null };

/** How long a rolled key keeps working next to its replacement, in seconds. */
export const ROLL_OVERLAPS = { now: 0, '1h': 3600, '24h': 86400, '7d': 604800 } as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;

/** A rolled key says `replaced` both in and after its overlap: which key took its place matters more than when it stopped. */
export type KeyState = 'active' | 'replaced' | 'expired' | 'revoked';

function stateOf(key: KeyRow, now: string): KeyState {
  if (key.revoked_at !== null) return 'revoked';
  if (key.replaced_by !== null) return 'replaced';
  return key.expires_at !== null && key.expires_at <= now ? 'expired' : 'active';
}

/**
 * Active keys one account may hold. Enough for one key per integration and environment; without a
 * cap, keys were a way around the per-key rate limit (60 created in 0.4 s). Counted: every key that
 * still works, a rolled one in its overlap included; an expired key no longer does, so it is not.
 */
export const MAX_ACTIVE_KEYS_PER_ACCOUNT = 25;

/** last_used_at is written at most once a minute per key, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

const MAX_MONTHLY_LIMIT = 1_000_000_000;
/**
 * A date (the key works through that UTC day, so it stops at 00:00 UTC the next day, as "valid until"
 * reads on a card) or an instant with its offset: a time without one would depend on the server's zone.
 */
const EXPIRY_PATTERN = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** The stored form of the controls, or the 422 that says what is wrong with them. */
function checkControls(controls: KeyControls, now: Date) {
  const { scopes = null, monthlyCreditLimit = null, expiresAt = null } = controls;
  // Checked again at run time: a form or a script may send names that are not scopes.
  const parsed = scopes === null ? null : parseScopes(scopes);
  if (parsed && !parsed.ok) throw keysErrors.invalidScopes(parsed.reason);
  const limit = monthlyCreditLimit;
  if (limit !== null && !(Number.isInteger(limit) && limit >= 1 && limit <= MAX_MONTHLY_LIMIT)) throw keysErrors.invalidLimit();
  return {
    scopes: parsed && formatScopes(parsed.scopes),
    monthly_credit_limit: limit,
    expires_at: expiresAt === null ? null : expiryOf(expiresAt, now),
  };
}

function expiryOf(input: string, now: Date): string {
  const match = EXPIRY_PATTERN.exec(input.trim());
  // Date.parse rolls 2027-02-30 over to March, and month 13 is no date at all: a calendar day that does
  // not exist is refused before anything computes with it.
  const realDay = match !== null && !Number.isNaN(Date.parse(`${match[1]}T00:00:00Z`)) && dayOf(`${match[1]}T00:00:00Z`) === match[1];
  const at = realDay ? Date.parse(match[0].length === 10 ? utcDayStart(`${match[0]}T00:00:00Z`, 1) : match[0]) : NaN;
  if (Number.isNaN(at)) throw keysErrors.invalidExpiry(`"${input}" is not a date or an instant with its time zone`);
  if (at <= now.getTime()) throw keysErrors.invalidExpiry(`${new Date(at).toISOString()} is not in the future`);
  return new Date(at).toISOString();
}

export function createKeysUsecases(deps: { db: Database; clock: () => Date; random: RandomBytes }) {
  const { clock, random } = deps;
  const keys = createKeysRepository(deps.db);
  const known = createKnownKeys(keys.knownKeysSource);
  /** When this process last wrote a key's last_used_at, so that a read stays a read for the rest of the minute. */
  const touched = new Map<string, number>();
  /**
   * What `authenticate` answers for a key as loaded, built once: the index replaces a row it re-reads,
   * so an entry lives exactly as long as the state it was built from. Frozen, as it is shared by calls.
   */
  const resolved = new WeakMap<KnownKeyRow, { caller: Caller; expiresAt: number }>();
  function resolve(key: KnownKeyRow) {
    let entry = resolved.get(key);
    if (!entry) {
      const caller: Caller = {
        accountId: key.account_id,
        keyId: key.id,
        keyPrefix: key.prefix,
        scopes: Object.freeze(scopesOf(key.scopes)) as Scope[],
        monthlyCreditLimit: key.monthly_credit_limit === null ? null : Number(key.monthly_credit_limit),
        via: 'api',
      };
      entry = { caller: Object.freeze(caller), expiresAt: key.expires_at === null ? Infinity : Date.parse(key.expires_at) };
      resolved.set(key, entry);
    }
    return entry;
  }

  /** A fresh key's identity and its token, shown once; the database keeps only the fingerprint. */
  function freshKey(accountId: string, now: Date) {
    const token = generateToken(random);
    const identity = {
      id: newId('key', now, random),
      account_id: accountId,
      prefix: displayPrefixOf(token),
      created_at: now.toISOString(),
      last_used_at: null,
      revoked_at: null,
      replaced_by: null,
    };
    return { identity, token, fingerprint: fingerprintOf(token) };
  }

  return {
    async createKey(accountId: string, rawName: string, controls: KeyControls = {}): Promise<{ key: KeyRow; token: string }> {
      const name = rawName.trim();
      if (name.length < 1 || name.length > 64) throw keysErrors.invalidName();
      const now = clock();
      const stored = checkControls(controls, now);
      const taken = async () => {
        const holder = await keys.findActiveNamed(accountId, name);
        if (holder) throw keysErrors.nameTaken(name, holder.expires_at !== null && holder.expires_at <= now.toISOString());
      };
      await taken();
      const { identity, token, fingerprint } = freshKey(accountId, now);
      const key: KeyRow = { ...identity, name, ...stored };
      try {
        const outcome = await keys.insertCapped({ ...key, fingerprint }, MAX_ACTIVE_KEYS_PER_ACCOUNT);
        if (outcome === 'limit_reached') throw keysErrors.limitReached(MAX_ACTIVE_KEYS_PER_ACCOUNT);
      } catch (error) {
        if (isAppError(error)) throw error;
        await taken();
        throw error;
      }
      return { key, token };
    },

    /**
     * Replaces a key with a new one of the same name, scopes, monthly limit and lifetime, and lets the
     * old one work for `overlap` more (or until its own expiry, if sooner), so tools switch over
     * without an outage. Not subject to the key cap: a roll replaces a key. The new token is shown once.
     */
    async rollKey(accountId: string, where: KeySelector, overlap: RollOverlap): Promise<{ key: KeyRow; token: string; replaced: KeyRow }> {
      // Checked at run time too: the overlap comes from a form or a command line.
      if (!Object.hasOwn(ROLL_OVERLAPS, overlap)) throw keysErrors.invalidOverlap(Object.keys(ROLL_OVERLAPS));
      const now = clock();
      const { identity, token, fingerprint } = freshKey(accountId, now);
      const stopsAt = new Date(now.getTime() + ROLL_OVERLAPS[overlap] * 1000).toISOString();
      const rolled = await keys.replace(accountId, where, identity.created_at, (old) => {
        // An expiring key stays an expiring one: a roll must not turn a temporary key into a permanent one.
        const lifetime = old.expires_at === null ? null : Date.parse(old.expires_at) - Date.parse(old.created_at);
        const key: KeyRow = {
          ...identity,
          name: old.name,
          scopes: old.scopes,
          monthly_credit_limit: old.monthly_credit_limit,
          expires_at: lifetime === null ? null : new Date(now.getTime() + lifetime).toISOString(),
        };
        return {
          key: { ...key, fingerprint },
          oldExpiresAt: old.expires_at !== null && old.expires_at < stopsAt ? old.expires_at : stopsAt,
        };
      });
      if (!rolled) throw keysErrors.notRollable();
      return { ...rolled, token };
    },

    /** Every key of the account, newest first, each with what it is now (keys expire without a write). */
    async listKeys(accountId: string): Promise<(KeyRow & { state: KeyState })[]> {
      const now = clock().toISOString();
      return (await keys.listByAccount(accountId)).map((key) => ({ ...key, state: stateOf(key, now) }));
    },

    async revokeKey(accountId: string, where: KeySelector): Promise<KeyRow[]> {
      const revoked = await keys.revoke(accountId, where, clock().toISOString());
      if (revoked.length === 0) throw keysErrors.notFound();
      return revoked;
    },

    /** Checks the key of one API call (its Authorization header values and URL). Throws the 401 errors of spec section 7. */
    async authenticate(headerValues: readonly string[] | undefined, url: string): Promise<Caller> {
      if (holdsKeyInUrl(url)) throw keysErrors.keyInUrl();
      const parsed = parseAuthorization(headerValues);
      if (parsed.kind === 'missing') throw keysErrors.missing();
      if (parsed.kind === 'malformed') throw keysErrors.malformed(parsed.reason);
      const fingerprint = fingerprintOf(parsed.token);
      // From memory, exact as of every commit before this call (keys.known.ts): no lookup per call.
      const key = await known.find(fingerprint);
      if (!key) throw keysErrors.invalid();
      const { caller, expiresAt } = resolve(key);
      const now = clock().getTime();
      if (expiresAt <= now) throw keysErrors.invalid();
      const lastUsed = touched.get(key.id) ?? (key.last_used_at === null ? 0 : Date.parse(key.last_used_at));
      if (now - lastUsed >= TOUCH_INTERVAL_MS) {
        touched.set(key.id, now);
        await keys.touch(key.id, new Date(now).toISOString());
      }
      return caller;
    },
  };
}

export type KeysUsecases = ReturnType<typeof createKeysUsecases>;
