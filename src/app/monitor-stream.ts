/**
 * Builds the site-wide stream (src/modules/monitors/stream/) when REDDIT_STREAM_SHARE is above 0 and
 * Reddit's data comes from an app (the demo source has no firehose): null otherwise, and the worker
 * starts none. container.ts calls it with the poller's delivery, so a match is stored and charged by
 * the same code whichever reader found it. Its `covers()` tells the poller, and the monitors' health,
 * what the stream serves now (stream.serving.usecases.ts): subreddit polling stops for it meanwhile.
 */
import type { Logger } from 'pino';
import type { RedditClient } from '../integrations/reddit/reddit.client.ts';
import type { MatchDelivery } from '../modules/monitors/poller/poller.delivery.ts';
import { createMonitorStream, type MonitorStream } from '../modules/monitors/stream/stream.usecases.ts';
import { createStreamServing } from '../modules/monitors/stream/stream.serving.usecases.ts';
import type { Config } from '../shared/config/config.ts';
import { streamPerMinute } from '../shared/config/stream.ts';
import type { Database } from '../shared/db/database.ts';

export function openMonitorStream(
  config: Config,
  deps: { db: Database; reddit: RedditClient | null; delivery: MatchDelivery; clock: () => Date; holder: string; log: Logger },
): (MonitorStream & ReturnType<typeof createStreamServing>) | null {
  const perMinute = streamPerMinute(config.stream, config.redditRequestsPerMinute);
  if (perMinute === 0 || !deps.reddit || config.redditSource !== 'reddit') return null;
  const { maxLagSeconds } = config.stream;
  return { ...createMonitorStream({ ...deps, reddit: deps.reddit, perMinute, maxLagSeconds }), ...createStreamServing({ ...deps, maxLagSeconds }) };
}
