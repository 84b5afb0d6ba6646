import { ratelimitErrors } from './ratelimit.errors.ts';

const WINDOW_SECONDS = 60;
/** Addresses remembered at most; past it, entries of finished windows are dropped (a flood of spoofed-looking addresses stays bounded). */
const MAX_TRACKED = 50_000;
/** Fingerprints of keys that authenticated in this process, most recent last; bounded like the addresses. */
const MAX_GOOD_KEYS = 10_000;

/**
 * Failed key attempts (401s) per client address, in fixed one-minute windows, in this process only.
 * In memory on purpose: the point is to stop a flood before it reaches the database, so counting it
 * in the database (or Redis) would cost the very round trip it saves. With several instances the
 * limit applies per instance, which still caps a flood at instances × limit. A key that authenticated
 * in this process before is still looked up from a throttled address, so the valid keys of other
 * people behind the same address (a NAT, an automation platform's egress) keep working; it is still
 * checked against the database, so a revoked one gets its 401.
 */
export function createAuthFailureThrottle(deps: { clock: () => Date; perMinute: number }) {
  const { clock, perMinute } = deps;
  const failures = new Map<string, { window: number; count: number }>();
  const goodKeys = new Set<string>();

  const windowOf = () => {
    const nowSeconds = Math.floor(clock().getTime() / 1000);
    return { nowSeconds, window: nowSeconds - (nowSeconds % WINDOW_SECONDS) };
  };

  return {
    /**
     * Throws 429 when this address already failed `perMinute` times this minute, unless the request's
     * key (its fingerprint, computed only then) worked before; checked before the key is looked up.
     */
    assertAllowed(address: string, fingerprint: () => string | null): void {
      const entry = failures.get(address);
      if (!entry || entry.count < perMinute) return;
      const { nowSeconds, window } = windowOf();
      if (entry.window !== window) return;
      const key = fingerprint();
      if (key !== null && goodKeys.has(key)) return;
      const retryAfter = window + WINDOW_SECONDS - nowSeconds;
      throw ratelimitErrors.tooManyFailures(retryAfter);
    },
    /** Remembers a key that authenticated, so a throttle on its address does not stop it. */
    recordSuccess(fingerprint: string): void {
      if (goodKeys.delete(fingerprint) || goodKeys.size < MAX_GOOD_KEYS) {
        goodKeys.add(fingerprint);
        return;
      }
      goodKeys.delete(goodKeys.values().next().value!);
      goodKeys.add(fingerprint);
    },
    /** Counts one 401 for this address. */
    recordFailure(address: string): void {
      const { window } = windowOf();
      const entry = failures.get(address);
      if (entry && entry.window === window) {
        entry.count += 1;
        return;
      }
      if (!entry && failures.size >= MAX_TRACKED) {
        for (const [key, old] of failures) if (old.window !== window) failures.delete(key);
        // Still full of this minute's addresses: forget the oldest rather than grow without bound.
        if (failures.size >= MAX_TRACKED) failures.delete(failures.keys().next().value!);
      }
      failures.set(address, { window, count: 1 });
    },
  };
}

export type AuthFailureThrottle = ReturnType<typeof createAuthFailureThrottle>;
