import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { describeDatabaseError, isDatabaseUnavailable } from '../db/database.errors.ts';
import { AppError, isAppError } from '../errors.ts';
import { docsFor } from './problem-docs.ts';
import { isHarmlessName, partSubject } from './validation-messages.ts';

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
  // Fastify's own wording of these two repeats the URL, which may hold a key.
  FST_ERR_BAD_URL: { status: 400, code: 'request.malformed', message: 'The URL is not valid: it has a bad percent-encoding.' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 404, code: 'not_found', message: 'No resource has an identifier that long.' },
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

/** The body of every error answer; `docs` where a guide explains the problem (problem-docs.ts). */
export const problemBody = (error: AppError): Problem => {
  const docs = docsFor(error.code);
  return {
    type: `urn:subpilot:problem:${error.code}`,
    title: STATUS_CODES[error.status] ?? 'Error',
    status: error.status,
    detail: error.message,
    code: error.code,
    ...error.extra,
    ...(docs ? { docs } : {}),
  };
};

/** A JSON pointer with every segment the schema did not name replaced by `*`. */
function safePointer(pointer: string): string {
  if (!pointer) return '/';
  const segments = pointer.split('/').slice(1).map((raw) => raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  return `/${segments.map((segment) => (/^\d{1,9}$/.test(segment) || isHarmlessName(segment) ? segment : '*')).join('/')}`;
}

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

/**
 * Validation issues as `{path, message}`. The validator compiler (validator.ts) has worded each one
 * already, without any request text that could hold a secret; the path is made safe here.
 */
const validationErrors = (issues: readonly ValidationIssue[]) =>
  issues.map((issue) => ({ path: safePointer(issue.instancePath), message: issue.message ?? 'is not valid' }));

/** The 422 for issues the validator compiler (validator.ts) found in `subject` ("The request body is", "The arguments are"). */
export function invalidInput(issues: readonly ValidationIssue[], subject: string): AppError {
  const errors = validationErrors(issues);
  const summary = errors.map((e) => e.message).join('; ');
  return new AppError({ code: 'request.invalid', status: 422, message: `${subject} not valid: ${summary}.`, extra: { errors } });
}

/**
 * Node's error when the client closes the connection before its request body is complete. Its code,
 * ECONNRESET, is also what a dropped database connection reports ("read ECONNRESET"), so the message
 * tells the two apart.
 */
const isClientAbort = (error: FastifyError) => error.code === 'ECONNRESET' && error.message === 'aborted';

export function toAppError(error: FastifyError): AppError {
  if (isAppError(error)) return error;
  if (isClientAbort(error)) {
    return new AppError({ code: 'request.aborted', status: 400, message: 'The client closed the connection before the request body was complete.' });
  }
  if (error.validation) return invalidInput(error.validation, partSubject(error.validationContext));
  if (isDatabaseUnavailable(error)) {
    return new AppError({
      code: 'unavailable',
      status: 503,
      message: 'The database is not reachable right now; try again in a moment.',
      headers: { 'retry-after': '5' },
    });
  }
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (known) return new AppError(known);
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError(FRAMEWORK_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY!);
  // Whether anything was charged is not known here; billable work that committed answers with its id
  // instead (shared/outcomes.ts), so this is for failures around it, and a keyed retry is always safe.
  return new AppError({
    code: 'internal',
    status: 500,
    message: 'Something went wrong on our side. Retrying with the same Idempotency-Key is safe: it never runs or charges twice.',
  });
}

/**
 * What a failure is logged as: a bug at error, a database out of reach at warn, a client that hung up
 * mid-request at info (nothing to fix on our side); a refusal not at all, the request line says it.
 */
export function logFailure(error: FastifyError | AppError, appError: AppError, request: FastifyRequest) {
  if (appError.code === 'request.aborted') request.log.info('client aborted: the connection closed before the request body was complete');
  else if (appError.status === 500) request.log.error({ err: appError.code === 'internal' ? error : appError.cause }, 'unhandled error');
  else if (appError.code === 'unavailable' && !isAppError(error)) request.log.warn(describeDatabaseError(error), 'database unreachable');
}

/** The one place where errors become HTTP replies (RFC 9457 problem+json). */
export function sendProblem(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(error as FastifyError);
  logFailure(error, appError, request);
  return reply
    .code(appError.status)
    .headers(appError.headers)
    .type(PROBLEM_CONTENT_TYPE)
    .serializer(JSON.stringify)
    .send(problemBody(appError));
}

/** Every answer toAppError gives to a request Fastify refuses or a failure of ours: what the API document lists. */
export const mappedErrorSamples = (): AppError[] => [
  ...Object.values(FRAMEWORK_ERRORS).map((known) => new AppError(known)),
  toAppError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) as FastifyError),
  toAppError(new Error('unexpected') as FastifyError),
];
