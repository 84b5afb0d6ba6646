import { ratelimitErrors } from './ratelimit.errors.ts';

const WINDOW_SECONDS = 60;
/** Addresses remembered at most; past it, entries of finished windows are dropped (a flood of spoofed-looking addresses stays bounded). */
const MAX_TRACKED = 50_000;

/**
 * Failed key attempts (401s) per client address, in fixed one-minute windows, in this process only.
 * It meets only calls already known not to be valid (keys.hooks.ts), so it never refuses a valid
 * key; what it does is turn the 401s of an address that keeps failing into 429s with Retry-After,
 * which tells a broken script to back off and gives a guesser nothing: past the limit every key,
 * revoked or never issued, gets the same answer. In memory on purpose: deciding that a key is not
 * valid costs no query (keys.known.ts), and counting in the database would add one.
 */
export function createAuthFailureThrottle(deps: { clock: () => Date; perMinute: number }) {
  const { clock, perMinute } = deps;
  const failures = new Map<string, { window: number; count: number }>();

  return {
    /** Counts one failed call of this address; throws 429 when it is past `perMinute` this minute, else returns (the caller answers its 401). */
    countFailure(address: string): void {
      const nowSeconds = Math.floor(clock().getTime() / 1000);
      const window = nowSeconds - (nowSeconds % WINDOW_SECONDS);
      const entry = failures.get(address);
      if (entry && entry.window === window) {
        entry.count += 1;
        if (entry.count > perMinute) throw ratelimitErrors.tooManyFailures(window + WINDOW_SECONDS - nowSeconds);
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
