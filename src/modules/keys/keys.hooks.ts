import type { FastifyRequest } from 'fastify';
import { isAppError } from '../../shared/errors.ts';
import type { AuthFailureThrottle } from '../ratelimit/ratelimit.failures.ts';
import { fingerprintOfHeader } from './keys.tokens.ts';
import type { Caller, KeysUsecases } from './keys.usecases.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/**
 * onRequest hook for every /api/v1/ route, the first check of src/app/api.ts: it runs before the body
 * is read, so a bad key is a 401 even when the body is also too large, malformed or of the wrong type
 * (spec section 5, rule 4).
 */
export const authenticateRequest = (keys: KeysUsecases, failures: AuthFailureThrottle) => async (request: FastifyRequest) => {
  const header = request.raw.headersDistinct.authorization;
  // An address that keeps failing is refused before its key is looked up (that lookup is what a flood
  // costs), unless the key is one that worked here before: valid keys behind a shared address pass.
  failures.assertAllowed(request.ip, () => fingerprintOfHeader(header));
  const queryKeys = Object.keys((request.query ?? {}) as Record<string, unknown>);
  try {
    request.caller = await keys.authenticate(header, queryKeys);
    failures.recordSuccess(request.caller.fingerprint);
  } catch (error) {
    if (isAppError(error) && error.status === 401) failures.recordFailure(request.ip);
    throw error;
  }
};

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route registered without authentication');
  return request.caller;
}
