import type { RateLimitStore } from './ratelimit.stores.ts';

export const WINDOW_SECONDS = 60;

export type PolicyName = 'per-key' | 'per-account';

export interface RateLimitState {
  /** Per key, then (when counted) per account. */
  policies: { name: PolicyName; limit: number; remaining: number }[];
  resetSeconds: number;
  /** The first policy this call went past, or null when the call may proceed. */
  exceeded: { policy: PolicyName; limit: number } | null;
}

const ACCOUNT_COUNTER = 'account:';

export function createRateLimitUsecases(deps: {
  store: RateLimitStore;
  clock: () => Date;
  perMinute: number;
  /** All keys of one account together, so creating keys does not raise an account's limit. */
  perAccountPerMinute: number;
}) {
  const { store, clock, perMinute, perAccountPerMinute } = deps;
  return {
    /** Counts the call against its key's and its account's minute; `exceeded` names the limit it went past, if any. */
    async check(keyId: string, accountId?: string): Promise<RateLimitState> {
      const nowSeconds = Math.floor(clock().getTime() / 1000);
      const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
      const ids = accountId === undefined ? [keyId] : [keyId, ACCOUNT_COUNTER + accountId];
      const counts = await store.hit(ids, windowStart);
      const limits = [perMinute, perAccountPerMinute];
      const names = ['per-key', 'per-account'] as const;
      const policies = counts.map((count, i) => ({ name: names[i]!, limit: limits[i]!, remaining: Math.max(0, limits[i]! - count) }));
      const hit = counts.findIndex((count, i) => count > limits[i]!);
      return {
        policies,
        resetSeconds: windowStart + WINDOW_SECONDS - nowSeconds,
        exceeded: hit >= 0 ? { policy: names[hit]!, limit: limits[hit]! } : null,
      };
    },
    close: () => store.close(),
  };
}

export type RateLimitUsecases = ReturnType<typeof createRateLimitUsecases>;
