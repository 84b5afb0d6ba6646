/**
 * The pure steps of a poller cycle: which subreddits to read, which monitor each new thing matches,
 * and which stretches of time went unread (gaps). No I/O, so each rule is tested on its own.
 */
import type { RedditItem } from '../../../integrations/reddit/reddit.types.ts';
import { buildMatchIndex, type MatchIndex } from '../../../shared/matching/keywords.ts';
import { combinedQuery } from '../../../shared/matching/query.ts';
import type { GroupRead, Mark } from './poller.reading.ts';
import type { MonitorRow, MonitorSource } from '../monitors.tables.ts';
import { isAllOfReddit, wantsSubreddit } from '../monitors.scope.ts';

/** One thing a monitor's keywords or query matched, with the keywords (the query's terms) found. */
export interface Found {
  item: RedditItem;
  keywords: string[];
}

export type ReadGroup = GroupRead & {
  names: string[];
  source: MonitorSource;
  marks: Map<string, Mark>;
  since: string | null;
  /** Cut short by the cycle's share of the budget: its matches count, its marks stay and it leaves no gap. */
  cut?: boolean;
};

export interface GapRow {
  monitorId: string;
  source: MonitorSource;
  /** "r/name" of the monitor's subreddits the gap concerns. */
  subreddits: string[];
  from: string;
  to: string;
}

/**
 * A monitor's subreddits as the poller reads them: lower-case, without "r/". None for a monitor over
 * all of Reddit: the site-wide stream alone serves it, and nothing ever reads /r/all/new on its behalf.
 */
export const subredditsOf = (monitor: MonitorRow) =>
  isAllOfReddit(monitor) ? [] : (JSON.parse(monitor.subreddits) as string[]).map((s) => s.slice(2).toLowerCase());
const sourcesOf = (monitor: MonitorRow) => JSON.parse(monitor.sources) as MonitorSource[];

/** One index over every monitor's rule: its keywords and excludes, and its query (both must hold when it has both). */
export function indexOfMonitors(monitors: MonitorRow[]): MatchIndex {
  return buildMatchIndex(
    monitors.map((m) => ({
      monitorId: m.id,
      query: combinedQuery({ keywords: JSON.parse(m.keywords) as string[], excludes: JSON.parse(m.exclude_keywords) as string[], query: m.query }),
      mode: m.match_mode,
    })),
  );
}

/**
 * indexOfMonitors, kept while no active monitor changed (the same ids at the same updated_at): the
 * poller and the stream each hold one and ask it every cycle, and a build is not free (about 0.4 s at
 * 10,000 monitors).
 */
export function cachedIndexOfMonitors(): (monitors: MonitorRow[]) => MatchIndex {
  let cached: { key: string; index: MatchIndex } | null = null;
  return (monitors) => {
    const key = monitors.map((m) => `${m.id}@${m.updated_at}`).join(',');
    if (cached?.key !== key) cached = { key, index: indexOfMonitors(monitors) };
    return cached.index;
  };
}

/**
 * Every new thing against every monitor at once (the index), then each hit checked against what the
 * monitor asked: its subreddits (every one but the excluded, over all of Reddit), its sources, NSFW, and
 * nothing created before it started watching.
 * The poller's reads and the site-wide stream's (stream/stream.usecases.ts) go through it alike.
 */
export function collectMatches(reads: Pick<ReadGroup, 'items' | 'source'>[], monitors: MonitorRow[], index: MatchIndex): Map<string, Found[]> {
  const wants = new Map(
    monitors.map((m) => [m.id, { monitor: m, wants: wantsSubreddit(m), sources: new Set(sourcesOf(m)) }]),
  );
  const found = new Map<string, Found[]>();
  for (const read of reads) {
    for (const item of read.items) {
      for (const [monitorId, keywords] of index.match(item)) {
        const want = wants.get(monitorId);
        if (!want || !want.sources.has(read.source) || !want.wants(item.subreddit.toLowerCase())) continue;
        // Reddit times things to the second: a thing of the very second the monitor started watching is its.
        if ((item.nsfw && Number(want.monitor.include_nsfw) !== 1) || item.created_at < want.monitor.watch_from.slice(0, 19)) continue;
        const list = found.get(monitorId) ?? [];
        list.push({ item, keywords });
        found.set(monitorId, list);
      }
    }
  }
  return found;
}

/**
 * A read that stopped (page cap, or the listing's end) before reaching a subreddit's mark, or the
 * time since when a subreddit never read before is wanted, left the things between that point and
 * the oldest thing read unread: a gap on every monitor watching that subreddit for that source.
 */
export function gapsOf(reads: ReadGroup[], monitors: MonitorRow[]): GapRow[] {
  const gaps: GapRow[] = [];
  for (const read of reads) {
    if (read.complete || read.cut || !read.oldest) continue;
    const oldest = read.oldest;
    const missedFrom = new Map<string, string>();
    for (const name of read.names) {
      const mark = read.marks.get(name);
      if (mark && mark.at < oldest) missedFrom.set(name, mark.at);
      else if (!mark && read.since !== null && oldest > read.since) missedFrom.set(name, read.since);
    }
    if (missedFrom.size === 0) continue;
    for (const monitor of monitors) {
      if (!sourcesOf(monitor).includes(read.source)) continue;
      const mine = (JSON.parse(monitor.subreddits) as string[]).filter((s) => missedFrom.has(s.slice(2).toLowerCase()));
      if (mine.length === 0) continue;
      const from = mine.map((s) => missedFrom.get(s.slice(2).toLowerCase())!).sort()[0]!;
      gaps.push({ monitorId: monitor.id, source: read.source, subreddits: mine, from, to: oldest });
    }
  }
  return gaps;
}

/** When the monitors that want any of `fresh` (names never read) for `source` started watching: the earliest. */
export function sinceOf(fresh: string[], source: MonitorSource, monitors: MonitorRow[]): string | null {
  let since: string | null = null;
  for (const monitor of monitors) {
    if (!sourcesOf(monitor).includes(source) || !subredditsOf(monitor).some((name) => fresh.includes(name))) continue;
    if (since === null || monitor.watch_from < since) since = monitor.watch_from;
  }
  return since;
}
