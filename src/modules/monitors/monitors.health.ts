import type { SubredditsTable } from '../subreddits/subreddits.tables.ts';
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

export function healthOf(row: MonitorRow, facts: HealthFacts) {
  const sources = JSON.parse(row.sources) as MonitorSource[];
  const subreddits = (JSON.parse(row.subreddits) as string[]).map((subreddit) => {
    const name = subreddit.slice(2).toLowerCase();
    // The latest of the monitor's sources: a monitor of posts and comments was last read when either was.
    const reads = facts.cursors.filter((c) => c.subreddit === name && sources.includes(c.source));
    const failed = latest(
      reads.filter((c) => c.error !== null),
      (c) => c.error_at,
    );
    return {
      subreddit,
      state: stateOf(facts.directory.get(name)),
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
  return { subreddits, gaps };
}
