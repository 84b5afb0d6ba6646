import type { FastifyRequest } from 'fastify';
import type { Caller, KeysUsecases } from './keys.usecases.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/**
 * onRequest hook for every /api/v1/ route: it runs before the body is read, so a bad key is a 401
 * even when the body is also too large, malformed or of the wrong type (spec section 5, rule 4).
 */
export const authenticateRequest = (keys: KeysUsecases) => async (request: FastifyRequest) => {
  const queryKeys = Object.keys((request.query ?? {}) as Record<string, unknown>);
  request.caller = await keys.authenticate(request.raw.headersDistinct.authorization, queryKeys);
};

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route registered without authentication');
  return request.caller;
}
