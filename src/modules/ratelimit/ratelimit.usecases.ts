import { AppError } from '../../shared/errors.ts';
import type { RateLimitStore } from './ratelimit.stores.ts';

const WINDOW_SECONDS = 60;

export interface RateLimitState {
  /** Per key, then (when counted) per account. */
  policies: { name: 'per-key' | 'per-account'; limit: number; remaining: number }[];
  resetSeconds: number;
}

/**
 * The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): both policies, per key and per
 * account, as the draft allows a list; a client watches whichever runs out first.
 */
export const rateLimitHeaders = (state: RateLimitState) => ({
  'ratelimit-policy': state.policies.map((p) => `"${p.name}";q=${p.limit};w=${WINDOW_SECONDS}`).join(', '),
  ratelimit: state.policies.map((p) => `"${p.name}";r=${p.remaining};t=${state.resetSeconds}`).join(', '),
});

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
    /** Counts the call against its key's and its account's minute; throws 429 (with the headers) past either limit. */
    async check(keyId: string, accountId?: string): Promise<RateLimitState> {
      const nowSeconds = Math.floor(clock().getTime() / 1000);
      const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
      const ids = accountId === undefined ? [keyId] : [keyId, ACCOUNT_COUNTER + accountId];
      const counts = await store.hit(ids, windowStart);
      const limits = [perMinute, perAccountPerMinute];
      const names = ['per-key', 'per-account'] as const;
      const policies = counts.map((count, i) => ({ name: names[i]!, limit: limits[i]!, remaining: Math.max(0, limits[i]! - count) }));
      const state = { policies, resetSeconds: windowStart + WINDOW_SECONDS - nowSeconds };
      const hit = counts.findIndex((count, i) => count > limits[i]!);
      if (hit >= 0) {
        const who = hit === 0 ? 'This key' : "This key's account (all its keys together)";
        throw new AppError({
          code: 'rate_limit.exceeded',
          status: 429,
          message: `${who} made more than ${limits[hit]} requests this minute; retry after ${state.resetSeconds} s. Nothing was charged.`,
          extra: { policy: names[hit] },
          headers: { ...rateLimitHeaders(state), 'retry-after': String(state.resetSeconds) },
        });
      }
      return state;
    },
    close: () => store.close(),
  };
}

export type RateLimitUsecases = ReturnType<typeof createRateLimitUsecases>;
