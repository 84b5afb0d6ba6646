import { AppError } from '../../shared/errors.ts';
import { isRateLimitStatus } from '../../integrations/reddit/reddit.ratelimit.ts';

export const scrapeErrors = {
  notConfigured: () =>
    new AppError({
      code: 'scrape.not_configured',
      status: 503,
      // Read by API clients and operators alike; docs/operations.md "Reddit credentials" has the longer story.
      message:
        'Reddit is not configured on this server (REDDIT_CLIENT_ID is unset); no credits were charged. ' +
        'The operator must set REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET to the credentials of a Reddit app ' +
        'approved for API access: Reddit approves each new app (since late 2025) and has no anonymous access ' +
        '(its unauthenticated endpoints closed in 2026). A "web app" serves scrape, Connect Reddit and publish ' +
        '(redirect URI: PUBLIC_URL/dashboard/connections/reddit/callback); a "script" app serves scrape only. ' +
        'Until then REDDIT_SOURCE=demo serves sample data, labelled "demo" and free.',
    }),
  upstreamUnavailable: (
    scrapeId: string,
    reason: string | null,
    upstreamStatus: number | undefined,
    retryAfterSeconds: number | undefined,
  ) =>
    new AppError({
      code: 'scrape.reddit_unavailable',
      status: isRateLimitStatus(upstreamStatus) || upstreamStatus === 503 ? 503 : 502,
      message: `The scrape failed: ${reason ?? 'Reddit could not be reached'}. Nothing was charged; try again later.`,
      extra: { scrape_id: scrapeId },
      headers: retryAfterSeconds ? { 'retry-after': String(Math.ceil(retryAfterSeconds)) } : {},
    }),
  /**
   * Reddit refuses the app itself (blocked, not approved, credentials refused). 503 like
   * `scrape.not_configured`: this server cannot scrape until its operator acts, and no Retry-After,
   * because waiting does not fix it; 502 would say Reddit's answer was faulty, and it was not.
   */
  redditBlocked: (scrapeId: string, reason: string | null) =>
    new AppError({
      code: 'scrape.reddit_blocked',
      status: 503,
      message:
        `The scrape failed: ${reason ?? "Reddit refuses this server's app"}. This is not about the subreddits: ` +
        "nothing was charged. The operator should check that the server's Reddit app is approved for API access, " +
        'that REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET belong to it, and that REDDIT_USER_AGENT is a descriptive User-Agent.',
      extra: { scrape_id: scrapeId },
    }),
  notFound: () => new AppError({ code: 'scrape.not_found', status: 404, message: 'No scrape with this id in your account.' }),
};
