/** The errors every Reddit client raises; its own file so the HTTP layer, rate limits and clients all sit above it. */

/** Reddit could not be reached or kept failing: 5xx, timeouts, network errors, 429 after retries. */
export class RedditUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = 'RedditUnavailableError';
  }
}

/**
 * Reddit refuses this app itself, not one subreddit: its token endpoint answers 401/403 (credentials
 * refused, app not approved), or an API call answers 403 with a page that is not JSON (since 2026 the
 * "You've been blocked by network security" page, `Server: snooserv`). Retrying will not help; the
 * operator must act. A subclass, so callers that only know "unavailable" still fail safe.
 */
export class RedditBlockedError extends RedditUnavailableError {
  constructor(message: string, upstreamStatus: number) {
    super(message, undefined, upstreamStatus);
    this.name = 'RedditBlockedError';
  }
}

/**
 * This server's own shared budget had no slot within the wait bound: Reddit was never asked. Answered
 * like Reddit's 429 to API callers; the monitors' poller tells it apart, as it is not Reddit failing.
 */
export class RedditBudgetExhaustedError extends RedditUnavailableError {
  constructor(message: string, retryAfterSeconds: number) {
    super(message, retryAfterSeconds, 429);
    this.name = 'RedditBudgetExhaustedError';
  }
}
