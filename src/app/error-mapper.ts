import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from './errors.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Fastify's own request errors, re-worded for callers; everything else unknown becomes a 500. */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'request.unsupported_media_type',
    message: 'Send the body as JSON with the header "Content-Type: application/json".',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'request.too_large', message: 'The request body is over 64 KiB.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'request.malformed_json', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'request.malformed_json',
    message: 'The request body is empty; send a JSON object.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'request.malformed',
    message: 'The Content-Length header does not match the body.',
  },
};

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  [extension: string]: unknown;
}

export const problemBody = (error: AppError): Problem => ({
  type: `urn:subpilot:problem:${error.code}`,
  title: STATUS_CODES[error.status] ?? 'Error',
  status: error.status,
  detail: error.message,
  code: error.code,
  ...error.extra,
});

export function toAppError(error: FastifyError): AppError {
  if (isAppError(error)) return error;
  if (error.validation) {
    const errors = error.validation.map((issue) => ({
      path: issue.instancePath || '/',
      message: issue.message ?? 'is not valid',
    }));
    const where = error.validationContext === 'querystring' ? 'query string' : `request ${error.validationContext ?? 'body'}`;
    const summary = errors.map((e) => `${e.path} ${e.message}`).join('; ');
    return new AppError({ code: 'request.invalid', status: 422, message: `The ${where} is not valid: ${summary}.`, extra: { errors } });
  }
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (known) return new AppError(known);
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError(FRAMEWORK_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY!);
  return new AppError({ code: 'internal', status: 500, message: 'Something went wrong on our side; nothing was charged. Try again.' });
}

/** The one place where errors become HTTP replies (RFC 9457 problem+json). */
export function sendProblem(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(error as FastifyError);
  if (appError.status >= 500 && !isAppError(error)) request.log.error({ err: error }, 'unhandled error');
  return reply
    .code(appError.status)
    .headers(appError.headers)
    .type(PROBLEM_CONTENT_TYPE)
    .serializer(JSON.stringify)
    .send(problemBody(appError));
}
