import { AppError } from '../../app/errors.ts';

export const scrapeErrors = {
  notConfigured: () =>
    new AppError({
      code: 'scrape.not_configured',
      status: 503,
      message: 'Reddit is not configured on this server (REDDIT_CLIENT_ID is unset); no credits were charged.',
    }),
  upstreamUnavailable: (
    scrapeId: string,
    reason: string | null,
    upstreamStatus: number | undefined,
    retryAfterSeconds: number | undefined,
  ) =>
    new AppError({
      code: 'scrape.reddit_unavailable',
      status: upstreamStatus === 429 || upstreamStatus === 503 ? 503 : 502,
      message: `The scrape failed: ${reason ?? 'Reddit could not be reached'}. Nothing was charged; try again later.`,
      extra: { scrape_id: scrapeId },
      headers: retryAfterSeconds ? { 'retry-after': String(Math.ceil(retryAfterSeconds)) } : {},
    }),
  notFound: () => new AppError({ code: 'scrape.not_found', status: 404, message: 'No scrape with this id in your account.' }),
};
