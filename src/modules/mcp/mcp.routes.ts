import { toNodeHandler } from '@modelcontextprotocol/node';
import { localhostAllowedHostnames, validateHostHeader, validateOriginHeader, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireBody } from '../../shared/http/request-errors.ts';
import { authenticateRequest, callerOf } from '../keys/keys.hooks.ts';
import type { KeysUsecases } from '../keys/keys.usecases.ts';
import type { AuthFailureThrottle } from '../ratelimit/ratelimit.failures.ts';
import { mcpErrors } from './mcp.errors.ts';
import type { McpCallContext } from './mcp.endpoint.ts';

const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '']);

/** Deeper than any tool's arguments (a publish body is 3 levels) by far; past it the SDK's validation recursed until the stack ran out (a 500). */
const MAX_NESTING = 32;

/** How deeply `value` nests arrays and objects, counted without recursion, stopping once past `limit`. */
function nestingOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0 && deepest <= limit) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Refuses a body nested past MAX_NESTING with a problem in words, and logs it: it is either a broken client or an attack. */
const limitNesting = async (request: FastifyRequest) => {
  if (nestingOf(request.body, MAX_NESTING) <= MAX_NESTING) return;
  request.log.warn({ code: 'mcp.too_deep', key_prefix: callerOf(request).keyPrefix }, 'mcp request refused: JSON nested too deeply');
  throw mcpErrors.tooDeep(MAX_NESTING);
};

/**
 * The host names /mcp answers for (DNS rebinding: a page that points its own name at this server
 * sends that name as Host): PUBLIC_URL's, the bound HOST unless it binds every address, and the
 * loopback names, which no remote page can make a browser send to this server.
 */
export function mcpAllowedHosts(config: { publicUrl: string | null; host: string }): string[] {
  const names = new Set(localhostAllowedHostnames());
  if (config.publicUrl) names.add(new URL(config.publicUrl).hostname);
  if (!WILDCARD_BINDS.has(config.host)) names.add(config.host.includes(':') ? `[${config.host}]` : config.host);
  return [...names];
}

/** Requests from a browser carry Origin: only this server's own names may send one. */
const guardHosts = (allowed: string[]) => async (request: FastifyRequest) => {
  if (!validateHostHeader(request.headers.host, allowed).ok) throw mcpErrors.hostNotAllowed();
  if (!validateOriginHeader(request.headers.origin, allowed).ok) throw mcpErrors.originNotAllowed();
};

/**
 * POST /mcp (and GET/DELETE, which the stateless transport answers 405), checked in the API's order
 * before the SDK sees the request: Host and Origin (403), then the key, by the API's own hook (401
 * with the same problem body and challenge, refused on the very next call once revoked or expired).
 * Scope, rate limit and arguments are checked per tool call (mcp.endpoint.ts): a refusal there is a
 * tool error the model can read, not a failed connection.
 */
export async function mcpRoutes(
  app: FastifyInstance,
  options: { handler: McpHttpHandler; keys: KeysUsecases; authFailures: AuthFailureThrottle; allowedHosts: string[] },
) {
  const node = toNodeHandler(options.handler);
  app.addHook('onRequest', guardHosts(options.allowedHosts));
  app.addHook('onRequest', authenticateRequest(options.keys, options.authFailures));
  app.addHook('preValidation', requireBody);
  app.addHook('preValidation', limitNesting);
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    schema: { hide: true },
    handler: async (request, reply) => {
      const caller = { ...callerOf(request), via: 'mcp' as const };
      const extra: McpCallContext = { caller, log: request.log };
      // The SDK writes the answer itself; the token is never handed on, only who it belongs to.
      reply.hijack();
      const auth = { token: caller.keyPrefix, clientId: caller.keyId, scopes: caller.scopes, extra: extra as unknown as Record<string, unknown> };
      await node(Object.assign(request.raw, { auth }), reply.raw, request.body);
    },
  });
}

/**
 * OAuth discovery (RFC 9728 protected-resource metadata, RFC 8414 server metadata), at the root and
 * path-aware for /mcp: answered 404 in words, with no `resource_metadata` in the 401 challenge either,
 * so that clients do not start an OAuth flow that no authorization server could finish.
 */
export async function oauthDiscoveryRoutes(app: FastifyInstance) {
  for (const url of [
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/mcp',
    '/.well-known/oauth-authorization-server',
    '/.well-known/openid-configuration',
  ]) {
    app.get(url, { schema: { hide: true } }, async () => {
      throw mcpErrors.noOAuth();
    });
  }
}
