/**
 * Builds the site-wide stream (src/modules/monitors/stream/) when REDDIT_STREAM_SHARE is above 0 and
 * Reddit's data comes from an app (the demo source has no firehose): null otherwise, and the worker
 * starts none. container.ts calls it with the poller's delivery, so a match is stored and charged by
 * the same code whichever reader found it. Its `covers()` tells the poller, and the monitors' health,
 * what the stream serves now (stream.serving.usecases.ts): subreddit polling stops for it meanwhile.
 * `streamFacts` is what the monitors' usecases learn of it: whether it runs (a monitor over all of
 * Reddit needs it), what it covers, and a monitor's preview from its ring of recent items, which only
 * the process that reads the stream fills.
 */
import type { Logger } from 'pino';
import type { RedditClient } from '../integrations/reddit/reddit.client.ts';
import type { MatchDelivery } from '../modules/monitors/poller/poller.delivery.ts';
import type { MonitorRow } from '../modules/monitors/monitors.tables.ts';
import type { MonitorPreview } from '../modules/monitors/monitors.usecases.ts';
import { createStreamRing } from '../modules/monitors/stream/stream.ring.ts';
import { previewOf } from '../modules/monitors/stream/stream.preview.ts';
import { createMonitorStream, type MonitorStream } from '../modules/monitors/stream/stream.usecases.ts';
import { createStreamServing } from '../modules/monitors/stream/stream.serving.usecases.ts';
import type { Config } from '../shared/config/config.ts';
import { streamPerMinute, streamRuns } from '../shared/config/stream.ts';
import type { Database } from '../shared/db/database.ts';

/** The stream and what it serves now. */
export type OpenStream = MonitorStream & ReturnType<typeof createStreamServing>;

export function openMonitorStream(
  config: Config,
  deps: { db: Database; reddit: RedditClient | null; delivery: MatchDelivery; clock: () => Date; holder: string; log: Logger },
): OpenStream | null {
  // The configuration's rule (streamRuns), and a client to read with (tests may pass none).
  if (!streamRuns(config) || !deps.reddit) return null;
  const perMinute = streamPerMinute(config.stream, config.redditRequestsPerMinute);
  const { maxLagSeconds } = config.stream;
  const ring = createStreamRing({ clock: deps.clock });
  return { ...createMonitorStream({ ...deps, reddit: deps.reddit, perMinute, maxLagSeconds, ring }), ...createStreamServing({ ...deps, maxLagSeconds }) };
}

/** Whether the stream runs, what it covers now, and each monitor's preview against its ring (null numbers, with the reason, without one). */
export function streamFacts(config: Config, stream: OpenStream | null, clock: () => Date) {
  return {
    streamOn: stream !== null,
    streamState: stream?.state,
    preview: (row: MonitorRow): MonitorPreview => previewOf(stream ? stream.ring.window() : null, row, clock(), config.stream.previewDailyLimit),
  };
}
