import type { RouteOptions } from 'fastify';
import Type, { type TObject } from 'typebox';
import { idempotencyErrors } from '../modules/idempotency/idempotency.errors.ts';
import { keysErrors } from '../modules/keys/keys.errors.ts';
import { SCOPES } from '../modules/keys/keys.scopes.ts';
import { ratelimitErrors } from '../modules/ratelimit/ratelimit.errors.ts';
import { rateLimitHeaders } from '../modules/ratelimit/ratelimit.hooks.ts';
import type { AppError } from '../shared/errors.ts';
import { routingErrors } from '../shared/http/allowed-methods.ts';
import { mappedErrorSamples } from '../shared/http/error-mapper.ts';
import { problemResponses } from '../shared/http/problems.ts';
import { requestErrors } from '../shared/http/request-errors.ts';
import { invalidFields, rules } from '../shared/http/validation-messages.ts';

const limitHeaders = rateLimitHeaders({
  policies: [
    { name: 'per-key', limit: 120, remaining: 0 },
    { name: 'per-account', limit: 600, remaining: 31 },
  ],
  resetSeconds: 17,
  exceeded: null,
});

const MAPPED = mappedErrorSamples();
const mapped = (...codes: string[]) => MAPPED.filter((sample) => codes.includes(sample.code));

/**
 * Samples of every answer the checks in api.ts give to a route as it is registered, in their order:
 * the API document lists them beside the route's own (`config.errors`), so no route can leave out its
 * 401 or its 429. A request without Host (400, before any route's checks) and raw-socket answers (408,
 * 431, a header line Node refuses) can meet any route.
 */
function checkErrors(route: RouteOptions): AppError[] {
  const scope = route.config?.scope ?? 'read';
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown; headers?: unknown };
  const takesBody = schema.body !== undefined;
  return [
    requestErrors.missingHost(),
    requestErrors.malformed(),
    requestErrors.timeout(),
    requestErrors.headersTooLarge(),
    ...mapped('request.malformed'),
    // 1. key, and the throttle on addresses that keep sending bad ones
    keysErrors.missing(),
    keysErrors.malformed('it is not "Bearer <API key>"'),
    keysErrors.invalid(),
    keysErrors.keyInUrl(),
    ratelimitErrors.tooManyFailures(42),
    // 2. scope, 3. rate limit
    keysErrors.insufficientScope(scope, SCOPES.filter((held) => held !== scope).slice(0, 1)),
    ratelimitErrors.exceeded({ policy: 'per-key', limit: 120, resetSeconds: 17, headers: limitHeaders }),
    // 4. body
    ...(takesBody ? [...mapped('request.unsupported_media_type', 'request.too_large', 'request.malformed_json'), requestErrors.noBody()] : []),
    // 5. schema; a path parameter longer than the router takes is no resource at all
    ...(takesBody || schema.querystring || schema.params || schema.headers
      ? [invalidFields('The query string', [{ path: '/limit', message: rules.number({ type: 'integer', minimum: 1, maximum: 100 }) }])]
      : []),
    ...(schema.params ? mapped('not_found') : []),
    // 6. Idempotency-Key
    ...(route.config?.idempotent
      ? [idempotencyErrors.invalidKey(), idempotencyErrors.inProgress(), idempotencyErrors.keyReused()]
      : []),
    // Outside the order: an unknown method on a known path, and the database or the service failing.
    routingErrors.methodNotAllowed('PUT', [route.method].flat()),
    ...mapped('unavailable', 'internal'),
  ];
}

const idempotencyKeyHeader = Type.String({
  description:
    'Makes a retry safe: a retry with the same key within 24 h gets the first outcome (replayed, or the resource as it ' +
    'now stands) and never runs or charges again. 1–255 visible ASCII characters, bare or quoted; a UUID is a good choice.',
});

/**
 * The problem answers of a route for the API document, from the checks above and the route's own
 * `config.errors`. Only the document gets them (openapi.document.ts adds them as it is built): problem
 * bodies are written by sendProblem, so compiling a serializer for each would only slow the start.
 */
export function problemsOf(route: RouteOptions): Record<number, unknown> {
  return problemResponses([...checkErrors(route), ...(route.config?.errors ?? [])]);
}

/**
 * The Idempotency-Key header where it is honoured, declared as any string: its form is the
 * idempotency check's (400), not the schema's.
 */
export function declareIdempotencyKey(route: RouteOptions): void {
  const described = route.schema;
  if (!described || !route.config?.idempotent) return;
  const headers = (described.headers ?? Type.Object({})) as TObject;
  described.headers = Type.Object({ ...headers.properties, 'idempotency-key': Type.Optional(idempotencyKeyHeader) });
}
