import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../keys/keys.hooks.ts';
import type { IdempotencyClaim, IdempotencyUsecases } from './idempotency.usecases.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Billable POST routes: an Idempotency-Key header makes retries safe. `replay` answers a retry whose
     * key is bound to a resource by that resource's current state (the route's own answer for it).
     */
    idempotent?: { replay: (request: FastifyRequest, reply: FastifyReply, resourceId: string) => Promise<FastifyReply> };
  }
  interface FastifyRequest {
    /** The key this request may bind, for the usecase to bind in its transaction; null without a header. */
    idempotency: IdempotencyClaim | null;
  }
}

const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after', 'preference-applied', 'credits-charged', 'credits-balance'];

/**
 * Attached only to routes marked `idempotent`, so other calls do not pass through it. Runs after
 * validation (a request that fails validation never started, so it keeps no key, as with Stripe) and
 * before the handler; the answer is stored on its way out. Its place in the order: src/app/api.ts.
 */
export function registerIdempotency(app: FastifyInstance, idempotency: IdempotencyUsecases) {
  app.decorateRequest('idempotency', null);

  const begin = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (typeof header !== 'string') return;
    const claim = await idempotency.begin(callerOf(request).accountId, header, request.routeOptions.url ?? '', request.body);
    if (claim.kind === 'proceed') {
      request.idempotency = claim.claim;
      return;
    }
    reply.header('idempotent-replayed', 'true');
    if (claim.kind === 'resource') return request.routeOptions.config.idempotent!.replay(request, reply, claim.resourceId);
    return reply
      .code(claim.response.status)
      .headers(claim.response.headers)
      .serializer((payload: unknown) => String(payload))
      .send(claim.response.body);
  };

  const finish = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!request.idempotency) return payload;
    const headers = Object.fromEntries(
      REPLAYED_HEADERS.flatMap((name) => {
        const value = reply.getHeader(name);
        return value === undefined ? [] : [[name, String(value)]];
      }),
    );
    const response = { status: reply.statusCode, headers, body: typeof payload === 'string' ? payload : String(payload ?? '') };
    // The work committed and this answer is true; failing to store it must not turn it into an error.
    // A retry then answers from the resource the key is bound to.
    await idempotency.finish(request.idempotency, response).catch((error) => request.log.warn({ err: error }, 'storing the answer of an Idempotency-Key failed; a retry rebuilds it'));
    return payload;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [begin, ...[route.preHandler ?? []].flat()];
    route.onSend = [...[route.onSend ?? []].flat(), finish];
  });
}
