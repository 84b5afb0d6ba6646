import type { SubredditsTable } from '../subreddits/subreddits.tables.ts';
import type { RedditAppStatus } from './monitors.reddit-app.ts';
import type { JudgeView } from './monitors.view.ts';
import { isAllOfReddit } from './monitors.scope.ts';
import { streamSources, type StreamLag, type StreamState } from './monitors.stream-serving.ts';
import type { MonitorCursorRow, MonitorGapRow, MonitorRow, MonitorSource } from './monitors.tables.ts';

/*
 * The result is MonitorHealth of monitors.usecases.ts, whose declared types check it there; a helper
 * may not import from a usecases file (test/architecture/imports.test.ts).
 */
type DirectoryState = SubredditsTable['state'];
/** What the poller writes to monitor_cursors.error. */
type ReadError = 'rate_limited' | 'blocked' | 'unavailable';

/** What a monitor's health is made of, read once for a whole page of monitors. */
export interface HealthFacts {
  /** The subreddit directory's states, by lower-case name. */
  directory: Map<string, { state: DirectoryState }>;
  cursors: Pick<MonitorCursorRow, 'subreddit' | 'source' | 'read_at' | 'error' | 'error_at'>[];
  /** Newest first. */
  gaps: MonitorGapRow[];
  /** How Reddit treats the poller, as it last stored it. */
  reddit: RedditAppStatus;
  /** How the language model treats the relevance judge, as the poller last stored it. */
  judge: JudgeView;
  /** The routed destinations that get nothing now, of these monitors (alerts: off or unconfirmed). */
  silent: { monitor_id: string; id: string; name: string; kind: string; status: string; off_reason: string | null }[];
  /** Whether this server runs the site-wide stream (REDDIT_STREAM_SHARE above 0): a monitor over all of Reddit is read by it alone. */
  streamOn: boolean;
  /** What the site-wide stream covers now, and how late it is where it does not (both {} while it is off). */
  stream: StreamState;
  now: Date;
  /** Two poller intervals: a subreddit of an active monitor not read for longer is stale. */
  staleAfterMs: number;
}

/**
 * Reddit answers a quarantined subreddit's listing with a bare 403 and no reason, which the directory
 * records as `forbidden`; a name the directory never checked is shown as `ok` until it is. The
 * `monitor.health` webhook names states the same way.
 */
export function stateOf(entry: { state: DirectoryState } | undefined): Exclude<DirectoryState, 'forbidden'> {
  if (!entry || entry.state === 'ok') return 'ok';
  return entry.state === 'forbidden' ? 'quarantined' : entry.state;
}

const latest = <T>(items: T[], at: (item: T) => string | null): T | undefined =>
  items.reduce<T | undefined>((best, item) => (at(item) !== null && (best === undefined || at(item)! > at(best)!) ? item : best), undefined);

/**
 * Stale: some source of the monitor (posts, comments) has not been read in this subreddit for more
 * than two intervals, counted from the later of its last read and when the monitor started watching,
 * whatever the reason (Reddit blocked or failing, the budget spent, the subreddit unavailable). A
 * paused monitor reads nothing by choice, so it is never stale.
 */
function isStale(row: MonitorRow, reads: HealthFacts['cursors'], sources: MonitorSource[], facts: HealthFacts): boolean {
  if (row.status !== 'active') return false;
  const oldest = facts.now.getTime() - facts.staleAfterMs;
  return sources.some((source) => {
    const readAt = reads.find((c) => c.source === source)?.read_at ?? null;
    const from = readAt !== null && readAt > row.watch_from ? readAt : row.watch_from;
    return Date.parse(from) < oldest;
  });
}

/**
 * `stale` when a subreddit Reddit would serve is not being read: the service is failing the monitor,
 * the most urgent news. Otherwise `unavailable` when Reddit refuses some subreddit for itself (private,
 * banned, …), which its owner can act on. `ok` otherwise.
 */
function statusOf(subreddits: { state: string; stale: boolean }[]): 'ok' | 'stale' | 'unavailable' {
  if (subreddits.some((s) => s.stale)) return 'stale';
  if (subreddits.some((s) => s.state !== 'ok')) return 'unavailable';
  return 'ok';
}

/** What an all-of-Reddit monitor's health says while the stream is off: it is read by nothing. */
export const STREAM_OFF_DETAIL =
  'not read: the stream is off. This monitor watches all of Reddit, which only the site-wide stream reads; ' +
  'the operator must set REDDIT_STREAM_SHARE above 0 (/docs/guides/monitors-stream#setting-the-share-operators), or change the monitor to name subreddits.';

/** How late the stream is, in words: a monitor over all of Reddit has nothing else to read it. */
function behindDetail(lag: StreamLag, now: Date): string {
  const skips = 'past REDDIT_STREAM_MAX_LAG_SECONDS behind it skips ahead, and the stretch it skipped is listed in gaps';
  const silent = Math.round((now.getTime() - Date.parse(lag.lastReadAt)) / 1000);
  return lag.stopped
    ? `behind: the site-wide stream has read nothing for ${silent} s (no instance runs its worker, or Reddit fails it); it resumes where it stopped, and ${skips}.`
    : `behind: the site-wide stream is ${lag.behindSeconds} s behind Reddit (more is created than its share of the budget reads); matches arrive once it catches up, and ${skips}.`;
}

/** Whether the site-wide stream reads a monitor over all of Reddit: off, behind (its latest source, a stop first), or reading. */
function streamOf(sources: MonitorSource[], facts: HealthFacts) {
  if (!facts.streamOn) return { state: 'off' as const, detail: STREAM_OFF_DETAIL };
  const lags = sources.map((source) => facts.stream.lags[source]).filter((lag) => lag !== undefined);
  const worst = lags.sort((a, b) => Number(b.stopped) - Number(a.stopped) || b.behindSeconds - a.behindSeconds)[0];
  return worst ? { state: 'behind' as const, detail: behindDetail(worst, facts.now) } : { state: 'reading' as const, detail: null };
}

export function healthOf(row: MonitorRow, facts: HealthFacts) {
  const sources = JSON.parse(row.sources) as MonitorSource[];
  const all = isAllOfReddit(row);
  // All of Reddit is no subreddit the poller reads: its health is the stream's, not a subreddit's.
  const named = all ? [] : (JSON.parse(row.subreddits) as string[]);
  const subreddits = named.map((subreddit) => {
    const name = subreddit.slice(2).toLowerCase();
    // The latest of the monitor's sources: a monitor of posts and comments was last read when either was.
    const reads = facts.cursors.filter((c) => c.subreddit === name && sources.includes(c.source));
    const failed = latest(
      reads.filter((c) => c.error !== null),
      (c) => c.error_at,
    );
    const state = stateOf(facts.directory.get(name));
    return {
      subreddit,
      state,
      // A subreddit Reddit refuses is unread by definition: its state says so, and "stale" (the service
      // failing to read what it could) would blame us for it, twice over on the page.
      stale: state === 'ok' && isStale(row, reads, sources, facts),
      last_read_at: latest(reads, (c) => c.read_at)?.read_at ?? null,
      last_error: failed ? { code: failed.error as ReadError, at: failed.error_at! } : null,
    };
  });
  const gaps = facts.gaps
    .filter((gap) => gap.monitor_id === row.id)
    .map((gap) => ({
      source: gap.source as MonitorSource,
      subreddits: JSON.parse(gap.subreddits) as string[],
      from: gap.from_at,
      to: gap.to_at,
      recorded_at: gap.recorded_at,
    }));
  // Only a monitor with an intent is judged: for the others the judge's state is no news.
  const destinations = facts.silent
    .filter((d) => d.monitor_id === row.id)
    .map(({ id, name, kind, status, off_reason }) => ({ id, name, kind, status: status as 'off' | 'unconfirmed', reason: off_reason }));
  const stream = all ? streamOf(sources, facts) : null;
  // Unread, or read late, because the stream is off or behind: as stale as a subreddit nothing reads, and only while active.
  const status = stream && stream.state !== 'reading' && row.status === 'active' ? 'stale' : statusOf(subreddits);
  // The sources of a monitor naming subreddits that the stream reads instead of the poller (all of Reddit's: `stream`).
  const readByStream = !all && row.status === 'active' ? streamSources(row, facts.stream.covers) : [];
  return { status, reddit: facts.reddit, subreddits, read_by_stream: readByStream, gaps, judge: row.intent ? facts.judge : null, stream, destinations };
}
