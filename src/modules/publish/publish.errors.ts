import { AppError } from '../../shared/errors.ts';

const refunded = 'nothing was charged';
/** A rail refuses before anything is recorded or held: the words say so, as the database does. */
const untouched = 'Nothing was recorded or charged.';

/** A pace rail's refusal: when it lets the next one through, as an instant and as Retry-After in whole seconds. */
function pace(code: string, message: string, blocking: { publicationId: string; retryAt: string; now: string }) {
  const seconds = Math.max(1, Math.ceil((Date.parse(blocking.retryAt) - Date.parse(blocking.now)) / 1000));
  return new AppError({
    code,
    status: 429,
    message: `${message} Try again after ${blocking.retryAt}. ${untouched}`,
    extra: { publication_id: blocking.publicationId, retry_at: blocking.retryAt },
    headers: { 'retry-after': String(seconds) },
  });
}

const times = (n: number) => (n === 1 ? 'once' : `${n} times`);

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
  /** `pending`: still held until the service has asked Reddit; otherwise it could never ask, and released. */
  outcomeUnknown: (publicationId: string, status: number, pending: boolean) =>
    new AppError({
      code: 'publish.outcome_unknown',
      status,
      message: pending
        ? 'Reddit did not answer in time, so it may or may not have posted. The price stays held until the service has ' +
          'checked Reddit (GET /api/v1/publications/{id}): charged if it went out, released if not. Do not post it again before then.'
        : 'Reddit did not answer in time and could not be asked afterwards whether it posted; its hold was released and nothing ' +
          'was charged. Check Reddit before trying again (with a new Idempotency-Key, or allow_duplicate: true).',
      extra: { publication_id: publicationId },
    }),
  /** The rails (publish.rails.ts, docs/api/rails.md): each refuses before anything is recorded or held. */
  duplicate: (publicationId: string, hours: number) =>
    new AppError({
      code: 'publish.duplicate',
      status: 409,
      message:
        `This account published the same text less than ${hours} hours ago (see publication_id), and Reddit treats repeated text as spam. ` +
        `Send allow_duplicate: true to publish it again. ${untouched}`,
      extra: { publication_id: publicationId },
    }),
  secondReply: (publicationId: string, thread: string) =>
    new AppError({
      code: 'publish.second_reply',
      status: 409,
      message:
        `This account already replied in the thread of ${thread} (see publication_id); replying once per thread keeps it from looking like a bot. ` +
        `Send allow_second_reply: true to reply there again. ${untouched}`,
      extra: { publication_id: publicationId },
    }),
  subredditPace: (blocking: { publicationId: string; retryAt: string; now: string }, subreddit: string, rule: { limit: number; minutes: number }) =>
    pace(
      'publish.subreddit_pace',
      `This account published in ${subreddit} ${times(rule.limit)} within the last ${rule.minutes} minutes, as often as this service allows there.`,
      blocking,
    ),
  hourlyPace: (blocking: { publicationId: string; retryAt: string; now: string }, limit: number) =>
    pace('publish.hourly_pace', `This account published ${times(limit)} within the last 60 minutes, as often as this service allows.`, blocking),
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
