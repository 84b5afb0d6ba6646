/**
 * The site-wide stream (issue 45; docs/api/monitors-stream.md): its fixed share of the Reddit budget
 * and how far behind it may fall before it skips ahead. Read once at start-up with the rest of the
 * configuration (config.ts); a bad value stops the start with one line naming the variable.
 */

export interface StreamConfig {
  /**
   * REDDIT_STREAM_SHARE: the share of REDDIT_REQUESTS_PER_MINUTE the stream takes, from 0 to 0.9; 0
   * (the default) turns the stream off. At most 0.9, so scrapes and look-ups always keep a tenth.
   */
  share: number;
  /** REDDIT_STREAM_MAX_LAG_SECONDS: past this far behind Reddit's newest item, the stream skips ahead and records the ids skipped. */
  maxLagSeconds: number;
  /**
   * MONITOR_PREVIEW_DAILY_LIMIT: creating or changing a monitor whose preview estimates more matches a
   * day than this (from the stream's last hour) is refused unless the caller sends confirm_volume.
   */
  previewDailyLimit: number;
}

type Env = Record<string, string | undefined>;
/** config.ts's whole-number reader, passed in: config.ts imports this file, and files never import each other in a loop. */
type WholeNumber = (env: Env, name: string, fallback: number, min: number, max: number) => number;

export const MAX_STREAM_SHARE = 0.9;

export function streamConfig(env: Env, integer: WholeNumber, fail: (message: string) => never): StreamConfig {
  const raw = env.REDDIT_STREAM_SHARE ?? '';
  const share = raw === '' ? 0 : Number(raw);
  if (!/^(0|1)?(\.\d+)?$/.test(raw) || !(share >= 0 && share <= MAX_STREAM_SHARE)) {
    fail(`REDDIT_STREAM_SHARE must be a decimal from 0 (the stream off) to ${MAX_STREAM_SHARE}, got "${raw}"`);
  }
  // Ten minutes: a burst is ridden out, an outage of Reddit or of this server is skipped over and recorded.
  return {
    share,
    maxLagSeconds: integer(env, 'REDDIT_STREAM_MAX_LAG_SECONDS', 600, 30, 7 * 86_400),
    // 2,000 a day: more than a person reads; a site-wide query for a common word matches far more.
    previewDailyLimit: integer(env, 'MONITOR_PREVIEW_DAILY_LIMIT', 2_000, 1, 100_000_000),
  };
}

/** The stream's own calls a minute: its share of the whole budget, rounded down; 0 when the stream is off. */
export const streamPerMinute = (config: { share: number }, perMinute: number) => Math.floor(config.share * perMinute);

/** Whether a configuration runs the stream: a share of at least one call a minute, of an approved app's budget on Reddit itself. */
export const streamRuns = (config: { stream: StreamConfig; redditRequestsPerMinute: number; reddit: unknown; redditSource: string }) =>
  streamPerMinute(config.stream, config.redditRequestsPerMinute) > 0 && config.reddit !== null && config.redditSource === 'reddit';
