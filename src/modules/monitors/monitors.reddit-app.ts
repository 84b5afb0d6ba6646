/**
 * Whether Reddit lets the poller read, decided from how its listing requests went in one cycle, and
 * whether that is news: a change is logged and announced once, never on every cycle. No I/O here;
 * poller/reddit-app.usecases.ts counts the answers, stores the state and tells.
 */
import { RedditBlockedError, RedditBudgetExhaustedError, RedditUnavailableError } from '../../integrations/reddit/reddit.errors.ts';
import { isRateLimited } from '../../integrations/reddit/reddit.ratelimit.ts';

/**
 * `blocked`: Reddit refuses the app itself (credentials refused, app not approved, the block page);
 * `failing`: every read failed with 5xx, timeouts or 429s; `ok`: reads succeed.
 */
export type RedditAppState = 'ok' | 'blocked' | 'failing';

/** `since` is null only for `ok` when nothing else was ever seen. */
export interface RedditAppStatus {
  state: RedditAppState;
  since: string | null;
}

export const NEVER_TROUBLED: RedditAppStatus = { state: 'ok', since: null };

/** How many listing requests of a cycle went each way. */
export interface ReadTally {
  ok: number;
  blocked: number;
  failing: number;
}

export const noReads = (): ReadTally => ({ ok: 0, blocked: 0, failing: 0 });

/**
 * A failed request's share of the verdict; null when Reddit was not at fault: this server's own
 * budget ran out (Reddit was never asked), or a bug of ours.
 */
export function outcomeOf(error: unknown): 'blocked' | 'failing' | null {
  if (error instanceof RedditBudgetExhaustedError) return null;
  const code = readErrorOf(error);
  return code === null ? null : code === 'blocked' ? 'blocked' : 'failing';
}

/** What Reddit's failure is called in a subreddit's health (`monitor_cursors.error`); null: not Reddit's failure. */
export function readErrorOf(error: unknown): 'rate_limited' | 'blocked' | 'unavailable' | null {
  if (error instanceof RedditBlockedError) return 'blocked';
  if (isRateLimited(error)) return 'rate_limited';
  if (error instanceof RedditUnavailableError) return 'unavailable';
  return null;
}

/**
 * What a cycle saw: blocked if any request was refused as an app (the poller stops reading at the
 * first one, so earlier successes prove nothing about the rest); ok if any request got an answer;
 * failing if requests were made and all failed; null when nothing was asked (no active monitor,
 * the budget spent first), which leaves the stored state as it is.
 */
export function observedState(tally: ReadTally): RedditAppState | null {
  if (tally.blocked > 0) return 'blocked';
  if (tally.ok > 0) return 'ok';
  if (tally.failing > 0) return 'failing';
  return null;
}

/** The state to store when the observation differs from the stored one; null: no change, nothing to tell. */
export function changeOf(stored: RedditAppStatus, observed: RedditAppState | null, at: string): { state: RedditAppState; since: string } | null {
  if (observed === null || observed === stored.state) return null;
  return { state: observed, since: at };
}

/** The operator's log line for a change, in words; it names settings, never their values. */
export function changeMessage(next: RedditAppState): string {
  if (next === 'blocked') {
    return (
      "Reddit is refusing this service's app: monitors read nothing until it is let in again (nothing is charged meanwhile). " +
      'Check that the Reddit app is approved for API access, that REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET belong to it, ' +
      'and that REDDIT_USER_AGENT is a descriptive User-Agent.'
    );
  }
  if (next === 'failing') {
    return 'Every Reddit read of the monitors failed (5xx, timeouts or rate limits): monitors read nothing until Reddit answers again.';
  }
  return 'Reddit answers the monitors again: they read back to where they stopped, and record a gap for what can no longer be read.';
}
