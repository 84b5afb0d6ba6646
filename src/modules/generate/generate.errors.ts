import { AppError } from '../../shared/errors.ts';
import { invalidFields } from '../../shared/http/validation-messages.ts';

export const generateErrors = {
  notConfigured: () =>
    new AppError({
      code: 'generate.not_configured',
      status: 503,
      message: 'generation is not configured on this server (LLM_BASE_URL and LLM_MODEL are unset); no credits were charged.',
    }),
  postNotFound: (postId: string, why: string) =>
    new AppError({ code: 'generate.post_not_found', status: 404, message: `The post ${postId} was not found (${why}); nothing was charged.` }),
  commentNotFound: (commentId: string, why: string) =>
    new AppError({ code: 'generate.comment_not_found', status: 404, message: `The comment ${commentId} was not found (${why}); nothing was charged.` }),
  matchNotFound: (matchId: string) =>
    new AppError({
      code: 'generate.match_not_found',
      status: 404,
      message: `No monitor match ${matchId} in your account (GET /api/v1/inbox lists them); nothing was charged.`,
    }),
  /** reply_to and its older name post_id: a reply names what it answers exactly once (a rule between two fields). */
  replyTarget: (given: 'both' | 'neither') =>
    invalidFields(
      'The request',
      [{ path: '/reply_to', message: given === 'both' ? 'replaces post_id: send one of them, not both' : 'is required for a reply (or its older name post_id)' }],
      'generate.reply_to_invalid',
    ),
  notEditable: (status: string) =>
    new AppError({ code: 'generate.not_editable', status: 409, message: `This generation is ${status}; only a completed draft can be edited.` }),
  redditUnavailable: (detail: string) =>
    new AppError({
      code: 'generate.reddit_unavailable',
      status: 502,
      message: `Reddit could not be reached to read what the reply answers (${detail}); nothing was charged. Try again later.`,
    }),
  /** Reddit refuses this server's app (see scrape.reddit_blocked): 503, nothing charged, the operator must act. */
  redditBlocked: (detail: string) =>
    new AppError({
      code: 'generate.reddit_blocked',
      status: 503,
      message:
        `Reddit refuses this server's app, so what the reply answers could not be read (${detail}); nothing was charged. ` +
        "The operator should check that the server's Reddit app is approved for API access, that REDDIT_CLIENT_ID " +
        'and REDDIT_CLIENT_SECRET belong to it, and that REDDIT_USER_AGENT is a descriptive User-Agent.',
    }),
  llmUnavailable: (generationId: string, detail: string, timedOut: boolean) =>
    new AppError({
      code: 'generate.llm_unavailable',
      status: timedOut ? 504 : 502,
      message: `The language model failed (${detail}); the charge was refunded in full. Try again later.`,
      extra: { generation_id: generationId },
    }),
  emptyDraft: (generationId: string, what: string) =>
    new AppError({
      code: 'generate.empty_draft',
      status: 502,
      message: `The language model answered without a usable draft (${what}); the charge was refunded in full. Try again, perhaps with other instructions.`,
      extra: { generation_id: generationId },
    }),
  inProgress: (generationId: string) =>
    new AppError({
      code: 'generate.in_progress',
      status: 409,
      message: 'The generation with this Idempotency-Key is still waiting for the language model; retry in a few seconds for its draft.',
      extra: { generation_id: generationId },
      headers: { 'retry-after': '2' },
    }),
  notFound: () => new AppError({ code: 'generate.not_found', status: 404, message: 'No generation with this id in your account.' }),
};
