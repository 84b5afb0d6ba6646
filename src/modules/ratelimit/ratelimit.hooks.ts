import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.ts';
import { WINDOW_SECONDS, type RateLimitState, type RateLimitUsecases } from './ratelimit.usecases.ts';

/**
 * The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): both policies, per key and per
 * account, as the draft allows a list; a client watches whichever runs out first.
 */
export const rateLimitHeaders = (state: RateLimitState) => ({
  'ratelimit-policy': state.policies.map((p) => `"${p.name}";q=${p.limit};w=${WINDOW_SECONDS}`).join(', '),
  ratelimit: state.policies.map((p) => `"${p.name}";r=${p.remaining};t=${state.resetSeconds}`).join(', '),
});

/**
 * onRequest hook: every answer carries the RateLimit headers; past either limit the call is a 429.
 * `identify` names the authenticated key and account (the key hook runs first), passed in so this
 * module does not reach into the keys module.
 */
export const limitRate =
  (rateLimit: RateLimitUsecases, identify: (request: FastifyRequest) => { keyId: string; accountId: string }) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    const { keyId, accountId } = identify(request);
    const state = await rateLimit.check(keyId, accountId);
    if (state.exceeded) {
      const who = state.exceeded.policy === 'per-key' ? 'This key' : "This key's account (all its keys together)";
      throw new AppError({
        code: 'rate_limit.exceeded',
        status: 429,
        message: `${who} made more than ${state.exceeded.limit} requests this minute; retry after ${state.resetSeconds} s. Nothing was charged.`,
        extra: { policy: state.exceeded.policy },
        headers: { ...rateLimitHeaders(state), 'retry-after': String(state.resetSeconds) },
      });
    }
    reply.headers(rateLimitHeaders(state));
  };
