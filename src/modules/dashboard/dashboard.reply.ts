import type { FastifyReply } from 'fastify';
import { isAppError, type AppError } from '../../shared/errors.ts';
import type { Html } from './html.ts';

export const sendPage = (reply: FastifyReply, page: Html, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(page.value);

/** A refusal the person can fix in the form (4xx) is shown beside it; anything else goes to the error page. */
export function formProblem(error: unknown): AppError {
  if (isAppError(error) && error.status >= 400 && error.status < 500) return error;
  throw error;
}
