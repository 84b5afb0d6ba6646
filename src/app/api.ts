import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { AppError } from '../shared/errors.ts';
import { billingApiRoutes } from '../modules/billing/billing.routes.ts';
import { costHeaders } from '../modules/credits/credits.hooks.ts';
import { creditsRoutes } from '../modules/credits/credits.routes.ts';
import { destinationsRoutes } from '../modules/destinations/destinations.routes.ts';
import { alertsRoutes } from '../modules/destinations/alerts/alerts.routes.ts';
import { generateRoutes } from '../modules/generate/generate.routes.ts';
import { registerIdempotency } from '../modules/idempotency/idempotency.hooks.ts';
import { keysErrors } from '../modules/keys/keys.errors.ts';
import { authenticateRequest, callerOf, requireScope } from '../modules/keys/keys.hooks.ts';
import { monitorsRoutes } from '../modules/monitors/monitors.routes.ts';
import { inboxRoutes } from '../modules/monitors/inbox/inbox.routes.ts';
import { streamRoutes } from '../modules/monitors/stream/stream.routes.ts';
import { publishRoutes } from '../modules/publish/publish.routes.ts';
import { limitRate } from '../modules/ratelimit/ratelimit.hooks.ts';
import { scrapeRoutes } from '../modules/scrape/scrape.routes.ts';
import { requireBody } from '../shared/http/request-errors.ts';
import { sendProblem } from '../shared/http/error-mapper.ts';
import { declareIdempotencyKey } from './api.describe.ts';
import type { Services } from './container.ts';

export const API_PREFIX = '/api/v1';

/**
 * Node's HTTP parser refuses a header line holding a line break or a control character before any
 * route is matched, so the server answers it on the raw socket. Such bytes are nearly always a key
 * pasted with its line end, so the answer is the one the first check below gives a malformed key.
 */
export const malformedHeaderLine = () => keysErrors.malformed('a header contains a line break or a control character');

/**
 * Every /api/v1/ endpoint, and the order of the checks each call passes. The first check to fail
 * answers; nothing after it runs. Fastify runs hooks by lifecycle stage (onRequest, body parsing,
 * preValidation, validation, preHandler, handler), so the stages below are in the order they run.
 * Register a new endpoint in the list at the bottom, with the scope a key needs (`config: { scope }`):
 * inside this plugin it cannot skip a check (test/api/check-order.test.ts calls every route under
 * /api/v1 to prove it).
 */
export const apiRoutes: FastifyPluginAsync<{ services: Services }> = async (api, { services }) => {
  // 1. Key → 401, before the body is read: a bad key is a 401 whatever else is wrong with the call.
  //    The key is known valid or not from memory (keys.known.ts); only a call that is not valid meets the
  //    throttle on failures, so an address that keeps sending bad keys gets 429 auth.too_many_failures
  //    for them while a valid key behind the same address passes.
  api.addHook('onRequest', authenticateRequest(services.keys, services.authFailures));

  // 2. Scope → 403 auth.insufficient_scope, when the key may not call this route (its `config.scope`).
  //    Before the rate limit: a call the key may never make does not use up its budget.
  api.addHook('onRequest', requireScope);

  // 3. Rate limit → 429, after the key and before the body: a throttled call costs nothing and reveals nothing.
  api.addHook('onRequest', limitRate(services.rateLimit, callerOf));

  // 4. Body → 415 (not application/json), 413 (over the server's BODY_LIMIT), 400 (malformed JSON):
  //    Fastify's JSON parser, whose errors shared/http/error-mapper.ts words; then 415 for a POST without a body.
  //    Fastify also reads text/plain, as a string the schema would refuse with a puzzling 422: JSON is the only body here.
  api.removeContentTypeParser('text/plain');
  api.addHook('preValidation', requireBody);

  // 5. Schema → 422 (body, query string, path), by the TypeBox validator the server installs.

  // 6. Idempotency-Key → 400 (malformed key), 409 (same key in flight), 422 (same key, other body), or the
  //    stored answer replayed. On routes marked `idempotent`, after validation: a refused request keeps no key.
  registerIdempotency(api, services.idempotency);

  // Idempotency-Key declared where it is honoured (the document reads each route's problem answers
  // from these checks and its `config.errors`: api.describe.ts).
  api.addHook('onRoute', declareIdempotencyKey);

  // A refusal for credits (402 credits.insufficient) says how to get them: the page that sells them
  // (`buy_url`) when Stripe is configured, else whom to ask (BILLING_CONTACT). Set before the routes
  // are registered: each route plugin keeps the handler its parent had when it was registered.
  api.setErrorHandler<FastifyError | AppError>((error, request, reply) => sendProblem(services.billing.explainRefusal(error), request, reply));

  // The cost on the answer: a body that states what the request charged and the balance after (only the
  // answer to the request that paid has `credits.balance`) says it in headers too, for a client, a proxy
  // or a log that reads headers only. Before the routes: each route plugin keeps the hooks its parent had.
  api.addHook('preSerialization', costHeaders);

  // 7. The usecase. Its credits check (402) is always last: credits are held or charged inside the
  //    usecase's transaction, so only a call that passed every check above can be charged.
  await api.register(creditsRoutes, { credits: services.credits });
  await api.register(billingApiRoutes, { billing: services.billing });
  await api.register(scrapeRoutes, { scrape: services.scrape });
  await api.register(generateRoutes, { generate: services.generate });
  await api.register(publishRoutes, { publish: services.publish });
  await api.register(monitorsRoutes, { monitors: services.monitors });
  await api.register(inboxRoutes, { inbox: services.inbox });
  await api.register(streamRoutes, { coverage: services.streamCoverage });
  await api.register(destinationsRoutes, { destinations: services.destinations });
  await api.register(alertsRoutes, { alerts: services.alerts });

  // After a billable call that went through, send any low-balance alert it wrote (and start the auto
  // top-up of a crossing it made) now rather than at the worker's next pass. Not awaited: the answer is
  // already out, and an alert or top-up left here is taken up by that pass. A refused call rolled its transaction back and wrote none, so it costs no query (the 402
  // path ran at half speed in the benchmark when every POST looked).
  // A callback hook: it waits for nothing, so it costs no promise on every call.
  api.addHook('onResponse', (request, reply, done) => {
    if (request.method === 'POST' && request.caller && reply.statusCode < 400) {
      services.lowBalanceAlerts.flush().catch((error) => request.log.warn({ err: error }, 'sending low-balance alerts failed; the worker retries'));
      services.billing.autoTopup.flush().catch((error) => request.log.warn({ err: error }, 'the auto top-up pass failed; the worker retries'));
    }
    done();
  });
};
