import { AppError } from '../../shared/errors.ts';

const refunded = 'nothing was charged';

export const publishErrors = {
  generationNotFound: () =>
    new AppError({ code: 'publish.generation_not_found', status: 404, message: 'No generation with this id in your account.' }),
  generationNotReady: (status: string) =>
    new AppError({ code: 'publish.generation_not_ready', status: 409, message: `This generation is ${status}; only a completed draft can be published.` }),
  idempotencyMismatch: () =>
    new AppError({
      code: 'publish.idempotency_mismatch',
      status: 422,
      message: 'This Idempotency-Key was used with a different request body. Use a new key for a new publish.',
    }),
  inProgress: (publicationId: string) =>
    new AppError({
      code: 'publish.in_progress',
      status: 409,
      message: 'A publish with this Idempotency-Key is still in progress; retry in a few seconds for its result.',
      extra: { publication_id: publicationId },
    }),
  /** `pending`: still charged until the service has asked Reddit; otherwise it could never ask, and refunded. */
  outcomeUnknown: (publicationId: string, status: number, pending: boolean) =>
    new AppError({
      code: 'publish.outcome_unknown',
      status,
      message: pending
        ? 'Reddit did not answer in time, so it may or may not have posted. The price stays reserved until the service has ' +
          'checked Reddit (GET /api/v1/publications/{id}): charged if it went out, refunded if not. Do not post it again before then.'
        : 'Reddit did not answer in time and could not be asked afterwards whether it posted; the charge was refunded. Check ' +
          'Reddit before trying again (with a new Idempotency-Key, or allow_duplicate: true).',
      extra: { publication_id: publicationId },
    }),
  duplicate: (publicationId: string) =>
    new AppError({
      code: 'publish.duplicate',
      status: 409,
      message: 'The same text went to the same place less than 10 minutes ago; send allow_duplicate: true to post it again.',
      extra: { publication_id: publicationId },
    }),
  rejected: (publicationId: string, code: string, message: string, field: string | null) =>
    new AppError({
      code: 'publish.rejected',
      status: 422,
      message: `Reddit refused it: ${code}${message ? ` (${message})` : ''}; ${refunded}.`,
      extra: { publication_id: publicationId, reddit_error: code, reddit_message: message, reddit_field: field },
    }),
  rateLimited: (publicationId: string, retryAfterSeconds: number | undefined, message: string) =>
    new AppError({
      code: 'publish.rate_limited',
      status: 429,
      message: `Reddit says this Reddit account is posting too fast (${message}); ${refunded}.`,
      extra: { publication_id: publicationId, reddit_error: 'RATELIMIT' },
      headers: retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {},
    }),
  forbidden: (publicationId: string, reason: string) =>
    new AppError({
      code: 'publish.forbidden',
      status: 403,
      message: `Reddit does not let this Reddit account post there (${reason}: banned, private or restricted); ${refunded}.`,
      extra: { publication_id: publicationId },
    }),
  redditUnavailable: (publicationId: string, detail: string, status: number | undefined) =>
    new AppError({
      code: 'publish.reddit_unavailable',
      status: 502,
      message: `Reddit could not be reached (${detail}); ${refunded}. Try again later.`,
      extra: { publication_id: publicationId, ...(status ? { upstream_status: status } : {}) },
    }),
  notFound: () => new AppError({ code: 'publish.not_found', status: 404, message: 'No publication with this id in your account.' }),
};
