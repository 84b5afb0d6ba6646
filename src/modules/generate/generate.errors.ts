import { AppError } from '../../app/errors.ts';

export const generateErrors = {
  notConfigured: () =>
    new AppError({
      code: 'generate.not_configured',
      status: 503,
      message: 'generation is not configured on this server (LLM_BASE_URL and LLM_MODEL are unset); no credits were charged.',
    }),
  postNotFound: (postId: string, why: string) =>
    new AppError({ code: 'generate.post_not_found', status: 404, message: `The post ${postId} was not found (${why}); nothing was charged.` }),
  redditUnavailable: (detail: string) =>
    new AppError({
      code: 'generate.reddit_unavailable',
      status: 502,
      message: `Reddit could not be reached to read the post (${detail}); nothing was charged. Try again later.`,
    }),
  llmUnavailable: (generationId: string, detail: string, timedOut: boolean) =>
    new AppError({
      code: 'generate.llm_unavailable',
      status: timedOut ? 504 : 502,
      message: `The language model failed (${detail}); the charge was refunded in full. Try again later.`,
      extra: { generation_id: generationId },
    }),
  notFound: () => new AppError({ code: 'generate.not_found', status: 404, message: 'No generation with this id in your account.' }),
};
