import type { FastifyReply } from 'fastify';
import { isAppError, type AppError } from '../../shared/errors.ts';
import type { Html } from './views/html.ts';

export const sendPage = (reply: FastifyReply, page: Html, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(page.value);

/** A refusal the person can fix in the form (4xx) is shown beside it; anything else goes to the error page. */
export function formProblem(error: unknown): AppError {
  if (isAppError(error) && error.status >= 400 && error.status < 500) return error;
  throw error;
}

/**
 * Any refusal the usecases word for a person (an AppError of any status: a 402, a rail's 429, the model's
 * 502), for pages that show it beside the button that caused it, since the person can act only on what
 * they are told. Anything else goes to the error page.
 */
export function appProblem(error: unknown): AppError {
  if (isAppError(error)) return error;
  throw error;
}

/** A record that has gone (404) as null, for what a page shows beside the thing asked for; any other error stands. */
export function goneAsNull(error: unknown): null {
  if (isAppError(error) && error.status === 404) return null;
  throw error;
}
