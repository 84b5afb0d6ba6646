import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../keys/keys.hooks.ts';
import type { IdempotencyUsecases } from './idempotency.usecases.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Billable POST routes: an Idempotency-Key header makes retries safe (Stripe semantics). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
}

const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after', 'preference-applied'];

/**
 * Attached only to routes marked `idempotent`, so other calls do not pass through it. Runs after
 * validation (a request that fails validation never started, so it keeps no key, as with Stripe) and
 * before the handler; the answer is stored on its way out. Its place in the order: src/app/api.ts.
 */
export function registerIdempotency(app: FastifyInstance, idempotency: IdempotencyUsecases) {
  app.decorateRequest('idempotencyKey', null);

  const begin = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (typeof header !== 'string') return;
    const claim = await idempotency.begin(callerOf(request).accountId, header, request.routeOptions.url ?? '', request.body);
    if (claim.kind === 'proceed') {
      request.idempotencyKey = claim.key;
      return;
    }
    return reply
      .code(claim.response.status)
      .headers({ ...claim.response.headers, 'idempotent-replayed': 'true' })
      .serializer((payload: unknown) => String(payload))
      .send(claim.response.body);
  };

  const finish = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!request.idempotencyKey || !request.caller) return payload;
    const headers = Object.fromEntries(
      REPLAYED_HEADERS.flatMap((name) => {
        const value = reply.getHeader(name);
        return value === undefined ? [] : [[name, String(value)]];
      }),
    );
    await idempotency.finish(request.caller.accountId, request.idempotencyKey, {
      status: reply.statusCode,
      headers,
      body: typeof payload === 'string' ? payload : String(payload ?? ''),
    });
    return payload;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [begin, ...[route.preHandler ?? []].flat()];
    route.onSend = [...[route.onSend ?? []].flat(), finish];
  });
}
