import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { apiDocsRoutes } from '../modules/apidocs/apidocs.routes.ts';
import { dashboardRoutes } from '../modules/dashboard/dashboard.routes.ts';
import { API_PREFIX, apiRoutes, malformedHeaderLine } from './api.ts';
import { registerMcp } from './mcp.ts';
import { stripeWebhookRoutes } from '../modules/billing/billing.routes.ts';
import { openapiOptions } from './openapi/openapi.document.ts';
import type { Services } from './container.ts';
import { AppError } from '../shared/errors.ts';
import { createAllowedMethods, routingErrors } from '../shared/http/allowed-methods.ts';
import { PROBLEM_CONTENT_TYPE, problemBody, sendProblem } from '../shared/http/error-mapper.ts';
import { requestErrors } from '../shared/http/request-errors.ts';
import { problemSchema } from '../shared/http/problems.ts';
import { compiledOnce, serializersCompiledOnce } from '../shared/http/compiled-once.ts';
import { strictValidatorCompiler } from '../shared/http/validator.ts';

export const BODY_LIMIT = 64 * 1024;

/** The methods whose requests carry content here; on any other, an empty JSON body is no body (see buildServer). */
const METHODS_WITH_CONTENT = new Set(['POST', 'PUT', 'PATCH']);

/** The validators of every server this process builds: each schema compiled once (compiled-once.ts). */
const validators = compiledOnce(strictValidatorCompiler);

/** Raw-socket reply for requests Node's parser refuses (a control character or line break in a header). */
function rawProblem(error: AppError): string {
  const body = JSON.stringify(problemBody(error));
  const headers = Object.entries(error.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${error.status} ${problemBody(error).title}\r\ncontent-type: ${PROBLEM_CONTENT_TYPE}\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

function onClientError(error: NodeJS.ErrnoException, socket: Socket) {
  if (!socket.writable) return socket.destroy();
  const code = error.code ?? '';
  if (code === 'HPE_INVALID_METHOD') return socket.end(rawProblem(routingErrors.methodNotImplemented()));
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return socket.end(rawProblem(requestErrors.timeout()));
  if (code === 'HPE_HEADER_OVERFLOW') return socket.end(rawProblem(requestErrors.headersTooLarge()));
  const malformedHeader = /HEADER|LF_EXPECTED|CR_EXPECTED|INVALID_CONSTANT|CHUNK/.test(code);
  const reply = malformedHeader ? malformedHeaderLine() : requestErrors.malformed();
  socket.end(rawProblem(reply));
}

/** `logger: false` silences the service; `logStream` sends its log lines elsewhere (tests read them). */
export async function buildServer(
  services: Services,
  options: { logger?: boolean; logStream?: Writable } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: services.config.logLevel, stream: options.logStream, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    clientErrorHandler: onClientError,
    // A bad percent-encoding or an over-long path segment: our wording, not Fastify's (which repeats the URL).
    frameworkErrors: sendProblem,
    return503OnClosing: true,
    // Each schema's serializer compiled once per process, not once per server (compiled-once.ts).
    schemaController: { compilersFactory: { buildSerializer: serializersCompiledOnce } },
    // Slow clients (headers or body trickled byte by byte) are cut off instead of holding sockets for ever.
    requestTimeout: services.config.http.requestTimeoutMs,
    keepAliveTimeout: services.config.http.keepAliveTimeoutMs,
    http: {
      headersTimeout: services.config.http.headersTimeoutMs,
      // Node checks these timeouts every 30 s by default, which would stretch a 10 s limit to 40 s.
      connectionsCheckingInterval: Math.min(1000, services.config.http.headersTimeoutMs),
      // Node answers an HTTP/1.1 request without Host with a bare 400 of its own; the hook below words it.
      requireHostHeader: false,
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validators);
  // Fastify refuses a QUERY (RFC 10008) without Content-Type before any handler runs, as an error the
  // not-found handler never sees (a 500). No route here answers QUERY, so it is read like the methods
  // Fastify does not know (PROPFIND, SEARCH, …): by its path alone, a 405 with Allow or a 404.
  app.addHttpMethod('QUERY', { hasBody: false, overrideExisting: true });
  // Node reports a CONNECT on its own event, and without a listener drops the connection unanswered.
  app.server.on('connect', (_request, socket: Socket) => socket.end(rawProblem(routingErrors.methodNotImplemented())));
  app.setErrorHandler(sendProblem);
  // Many clients send "Content-Type: application/json" on every call, a DELETE without a body included,
  // and Fastify's JSON parser refuses the empty body with a 400. Fastify never reads a GET or HEAD body;
  // on the other methods that take none (DELETE, OPTIONS) an empty body is no body. On POST, PUT and
  // PATCH it stays the parser's 400 "the request body is empty" (worded in error-mapper.ts). Anything
  // else goes to Fastify's own parser with its defaults ("__proto__" and "constructor" keys refused).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser<string>('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && !METHODS_WITH_CONTENT.has(request.method)) return done(null, undefined);
    return parseJson(request, body, done);
  });

  // Every route registered below, so that an unmatched request on a known path is a 405 with Allow.
  // Like a 404 it needs no key: it describes the endpoint, not the account.
  const allowed = createAllowedMethods();
  app.addHook('onRoute', (route) => allowed.add(route.url, route.method));
  app.setNotFoundHandler((request, reply) => {
    const allow = allowed.of(request.url);
    if (allow.length > 0 && !allow.includes(request.method)) {
      return sendProblem(routingErrors.methodNotAllowed(request.method, allow), request, reply);
    }
    // The path is not repeated: it may hold a key pasted into the wrong place.
    return sendProblem(
      new AppError({
        code: 'not_found',
        status: 404,
        message: `No endpoint matches ${request.method} on this path; see /docs (or /openapi.json) for the endpoints.`,
      }),
      request,
      reply,
    );
  });
  // RFC 9112 §3.2: a server answers 400 to an HTTP/1.1 request without Host. First of all checks, for
  // every path, dashboard included: no browser sends one, and a client that does can read problem+json.
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return;
    return sendProblem(requestErrors.missingHost(), request, reply);
  });
  app.decorateRequest('caller', null);
  app.addSchema(problemSchema);

  // One line per request. The route pattern, never the URL: a query string may hold a key.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 10) / 10,
        key_prefix: request.caller?.keyPrefix,
      },
      'request',
    );
  });

  await app.register(swagger, openapiOptions(services.config));

  // A load balancer must not send traffic to an instance that cannot reach its database.
  app.get('/healthz', { schema: { hide: true } }, async () => {
    await services.ping().catch((cause) => {
      throw new AppError({ code: 'unavailable', status: 503, message: 'The database is not reachable.', cause });
    });
    return { status: 'ok' };
  });
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/keys', 302));
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // The same document drawn as a page for people, the guides, and /llms.txt for agents.
  await app.register(apiDocsRoutes, { publicUrl: services.config.publicUrl });

  // Every /api/v1/ endpoint, each behind the checks in their one order: see api.ts.
  await app.register(apiRoutes, { prefix: API_PREFIX, services });

  // Stripe's events about credits bought, signed by Stripe rather than sent with a key: billing.routes.ts.
  await app.register(stripeWebhookRoutes, { billing: services.billing });

  // The same usecases and keys for AI agents, over the Model Context Protocol: see mcp.ts.
  await registerMcp(app, services);

  await app.register(dashboardRoutes, {
    prefix: '/dashboard',
    sessions: services.sessions,
    keys: services.keys,
    credits: services.credits,
    scrape: services.scrape,
    idempotency: services.idempotency,
    scrapePairPrice: services.config.prices.scrapePair,
    monitors: services.monitors,
    streamCoverage: services.streamCoverage,
    inbox: services.inbox,
    webhooks: services.webhooks,
    generate: services.generate,
    publish: services.publish,
    connections: services.connections,
    accountSettings: services.accountSettings,
    billing: services.billing,
    stripeApiUrl: services.config.billing.stripe?.apiUrl ?? null,
    destinations: services.destinations,
    alerts: services.alerts,
    clock: services.clock,
    redditSource: services.redditSource,
    signup: services.signup,
    passwordReset: services.passwordReset,
    publicUrl: services.config.publicUrl,
  });

  return app;
}

