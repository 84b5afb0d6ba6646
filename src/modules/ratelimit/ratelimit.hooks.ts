import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ratelimitErrors } from './ratelimit.errors.ts';
import { WINDOW_SECONDS, type RateLimitState, type RateLimitUsecases } from './ratelimit.usecases.ts';

/**
 * The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): both policies, per key and per
 * account, as the draft allows a list; a client watches whichever runs out first.
 */
export function rateLimitHeaders(state: RateLimitState) {
  let policy = '';
  let remaining = '';
  for (const p of state.policies) {
    const separator = policy === '' ? '' : ', ';
    policy += `${separator}"${p.name}";q=${p.limit};w=${WINDOW_SECONDS}`;
    remaining += `${separator}"${p.name}";r=${p.remaining};t=${state.resetSeconds}`;
  }
  return { 'ratelimit-policy': policy, ratelimit: remaining };
}

/**
 * onRequest hook: every answer carries the RateLimit headers; past either limit the call is a 429.
 * `identify` names the authenticated key and account (the key hook runs first), passed in so this
 * module does not reach into the keys module. A callback hook: one promise fewer on every call.
 */
export const limitRate =
  (rateLimit: RateLimitUsecases, identify: (request: FastifyRequest) => { keyId: string; accountId: string }) =>
  (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const { keyId, accountId } = identify(request);
    countCall(rateLimit, keyId, accountId).then((state) => {
      const headers = rateLimitHeaders(state);
      reply.header('ratelimit-policy', headers['ratelimit-policy']).header('ratelimit', headers.ratelimit);
      done();
    }, done);
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
