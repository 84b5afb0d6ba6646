import type { FastifyReply, FastifyRequest } from 'fastify';
import { ratelimitErrors } from './ratelimit.errors.ts';
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
    reply.headers(rateLimitHeaders(await countCall(rateLimit, keyId, accountId)));
  };

/** Counts one call of the key and its account: their state, or the 429 past either limit (for a route or an MCP tool call). */
export async function countCall(rateLimit: RateLimitUsecases, keyId: string, accountId: string): Promise<RateLimitState> {
  const state = await rateLimit.check(keyId, accountId);
  if (state.exceeded) {
    const { policy, limit } = state.exceeded;
    throw ratelimitErrors.exceeded({ policy, limit, resetSeconds: state.resetSeconds, headers: rateLimitHeaders(state) });
  }
  return state;
}
