/**
 * A query's cost before it runs: what a monitor's rule would have matched among the items the stream
 * read in its last hour (stream.ring.ts), through the very matcher the poller and the stream use
 * (collectMatches), and that count scaled to a day. Pure: the ring's window and the clock come in.
 */
import type { RedditItem } from '../../../integrations/reddit/reddit.types.ts';
import { collectMatches, indexOfMonitors } from '../poller/poller.cycle.ts';
import type { MonitorRow, MonitorSource } from '../monitors.tables.ts';
import { wantsSubreddit } from '../monitors.scope.ts';
import type { MonitorPreview } from '../monitors.view.ts';
import type { RingWindow } from './stream.ring.ts';
import { needsCommentTitles } from '../monitors.stream-serving.ts';
import { untitled } from './stream.titles.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A window shorter than this is scaled as if it were this long: a few seconds of items say little about a day. */
const MIN_WINDOW_MS = 60_000;

export const PREVIEW_REASONS = {
  streamOff: 'The site-wide stream is off on this server, so there are no recent items to count.',
  empty:
    'The stream has read nothing in the last hour in the process that answered: it is starting, or it runs in another ' +
    'instance (the recent items are kept only by the process that reads the stream).',
} as const;

/** The preview of a monitor's rule (its subreddits and excludes, keywords, query, sources, NSFW); its start is ignored. */
export function previewOf(window: RingWindow | null, row: MonitorRow, now: Date, dailyLimit: number): MonitorPreview {
  if (window === null || window.startedAt === null) {
    const reason = window === null ? PREVIEW_REASONS.streamOff : PREVIEW_REASONS.empty;
    return { matched_last_hour: null, items_in_window: null, window_started_at: null, estimated_per_day: null, daily_limit: dailyLimit, reason };
  }
  const monitor = { ...row, watch_from: '1970-01-01T00:00:00.000Z', resume_from: null };
  // The items in the monitor's reach: its subreddits (all but the excluded), of the sources it watches.
  const wants = wantsSubreddit(row);
  const sources = JSON.parse(row.sources) as MonitorSource[];
  // A comment whose post's title the stream did not find is not matched for a title: rule (stream.usecases.ts deliver).
  const titles = needsCommentTitles(row);
  const inReach = window.items.filter((item: RedditItem) => wants(item.subreddit.toLowerCase()) && !(titles && untitled(item)));
  const reads = (['posts', 'comments'] as const)
    .filter((source) => sources.includes(source))
    .map((source) => ({ source, items: inReach.filter((item) => item.type === (source === 'posts' ? 'post' : 'comment')) }));
  const matched = collectMatches(reads, [monitor], indexOfMonitors([monitor])).get(row.id)?.length ?? 0;
  const span = Math.min(HOUR_MS, Math.max(MIN_WINDOW_MS, now.getTime() - window.startedAt.getTime()));
  return {
    matched_last_hour: matched,
    items_in_window: reads.reduce((n, read) => n + read.items.length, 0),
    window_started_at: window.startedAt.toISOString(),
    estimated_per_day: Math.round((matched * DAY_MS) / span),
    daily_limit: dailyLimit,
    reason: null,
  };
}

/** Whether a preview refuses the change unless confirmed: only a count above the limit does, never a missing one. */
export const overLimit = (preview: MonitorPreview) => preview.estimated_per_day !== null && preview.estimated_per_day > preview.daily_limit;
