import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * `credits-charged` and `credits-balance` on an answer whose body states them (`credits.charged` and
 * `credits.balance`: scrape, generate, publish, a draft from the Inbox; only the answer to the request
 * that paid carries the balance). The body stays the source: the headers repeat it, so the two agree.
 */
export async function costHeaders(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const credits = (payload as { credits?: { charged?: unknown; balance?: unknown } } | null)?.credits;
  if (typeof credits?.charged === 'number' && typeof credits.balance === 'number') {
    reply.header('credits-charged', String(credits.charged)).header('credits-balance', String(credits.balance));
  }
  return payload;
}
