import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { isAppError } from '../../shared/errors.ts';
import type { AuthFailureThrottle } from '../ratelimit/ratelimit.failures.ts';
import type { Caller, KeysUsecases } from './keys.usecases.ts';
import { keysErrors } from './keys.errors.ts';
import type { Scope } from './keys.scopes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** The scope a key needs for this /api/v1/ route; every such route declares one (see requireScope). */
    scope?: Scope;
  }
}

/**
 * onRequest hook for every /api/v1/ route, the first check of src/app/api.ts: it runs before the body
 * is read, so a bad key is a 401 even when the body is also too large, malformed or of the wrong type
 * (spec section 5, rule 4). Validity is decided first, from memory (keys.known.ts), and only a call
 * that is not valid meets the throttle on failures: a valid key behind an address that floods (a NAT,
 * an automation platform's egress) always passes, before and after a restart, and a throttled address
 * gets the same 429 for every key it sends, so it cannot tell a revoked key from one that never was.
 */
export const authenticateRequest = (keys: KeysUsecases, failures: AuthFailureThrottle) => async (request: FastifyRequest) => {
  try {
    request.caller = await keys.authenticate(authorizationLines(request.raw.rawHeaders), request.url);
  } catch (error) {
    if (isAppError(error) && error.status === 401) failures.countFailure(request.ip);
    throw error;
  }
};

/**
 * The value of every Authorization line of the request, as sent (two lines are refused, so a list):
 * read from the raw header list, because Node's `headersDistinct` builds the lists of every header.
 */
function authorizationLines(rawHeaders: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') values.push(rawHeaders[i + 1]!);
  }
  return values;
}

/**
 * onRequest hook right after authenticateRequest: a key without the route's scope gets 403 before the
 * rate limit counts the call or the body is read. A route without a declared scope is a mistake in
 * this code, not the caller's, so it fails loudly instead of letting every key through.
 */
export function requireScope(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  // A callback hook, not an async one: it never waits, and a promise per call showed in the profile of the key path.
  const needed = request.routeOptions.config.scope;
  if (!needed) return done(new Error(`route ${request.method} ${request.routeOptions.url} declares no scope`));
  try {
    assertScope(callerOf(request), needed);
  } catch (error) {
    return done(error as Error);
  }
  done();
}

/** 403 auth.insufficient_scope when the caller's key lacks `needed`: for a route (above) or an MCP tool. */
export function assertScope({ scopes }: Pick<Caller, 'scopes'>, needed: Scope): void {
  if (!scopes.includes(needed)) throw keysErrors.insufficientScope(needed, scopes);
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route registered without authentication');
  return request.caller;
}
