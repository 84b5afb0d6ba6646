import { AppError } from '../../app/errors.ts';
import type { RateLimitStore } from './ratelimit.stores.ts';

const WINDOW_SECONDS = 60;

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): a named policy and its state. */
export const rateLimitHeaders = (state: RateLimitState) => ({
  'ratelimit-policy': `"per-key";q=${state.limit};w=${WINDOW_SECONDS}`,
  ratelimit: `"per-key";r=${state.remaining};t=${state.resetSeconds}`,
});

export function createRateLimitUsecases(deps: { store: RateLimitStore; clock: () => Date; perMinute: number }) {
  const { store, clock, perMinute } = deps;
  return {
    /** Counts the call against its key's minute; throws 429 (with the headers) past the limit. */
    async check(keyId: string): Promise<RateLimitState> {
      const nowSeconds = Math.floor(clock().getTime() / 1000);
      const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
      const count = await store.hit(keyId, windowStart);
      const state = {
        limit: perMinute,
        remaining: Math.max(0, perMinute - count),
        resetSeconds: windowStart + WINDOW_SECONDS - nowSeconds,
      };
      if (count > perMinute) {
        throw new AppError({
          code: 'rate_limit.exceeded',
          status: 429,
          message: `This key made more than ${perMinute} requests this minute; retry after ${state.resetSeconds} s. Nothing was charged.`,
          headers: { ...rateLimitHeaders(state), 'retry-after': String(state.resetSeconds) },
        });
      }
      return state;
    },
    close: () => store.close(),
  };
}

export type RateLimitUsecases = ReturnType<typeof createRateLimitUsecases>;
