import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../errors.ts';

/** Requests refused before any route is matched: answered on the raw socket (server.ts) or by the first checks. */
export const requestErrors = {
  timeout: () => new AppError({ code: 'request.timeout', status: 408, message: 'The request was not received in time.' }),
  malformed: () => new AppError({ code: 'request.malformed', status: 400, message: 'The HTTP request is malformed.' }),
  /** RFC 9112 §3.2: an HTTP/1.1 request without Host; the first check of every path (server.ts). */
  missingHost: () => new AppError({ code: 'request.missing_host', status: 400, message: 'An HTTP/1.1 request needs a Host header.' }),
  headersTooLarge: () =>
    new AppError({ code: 'request.headers_too_large', status: 431, message: 'The request headers are over 16 KiB together.' }),
  /** A POST without a body never reaches the JSON parser; it is answered like a wrong content type. */
  noBody: () =>
    new AppError({
      code: 'request.unsupported_media_type',
      status: 415,
      message: 'Send a JSON body with the header "Content-Type: application/json".',
    }),
};

/** preValidation hook: a POST without a body never reaches the JSON parser; refuse it like a wrong content type. */
export function requireBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  // A callback hook: it never waits, so it costs no promise on every call.
  done(request.method === 'POST' && request.body === undefined ? requestErrors.noBody() : undefined);
}
