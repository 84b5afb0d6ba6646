/**
 * The pure steps of catching up a monitor that paused for credits: which of its own
 * subreddits to read back, and which stretches that read could not reach (whether its account can pay
 * again is the price book's: canPayMatch in credits.prices.ts).
 * No I/O, so each rule is tested on its own; poller/resume.usecases.ts does the reading and storing.
 */
import { MAX_SUBREDDITS_PER_LISTING, chunk } from '../../../integrations/reddit/reddit.query.ts';
import type { SubredditsTable } from '../../subreddits/subreddits.tables.ts';
import { subredditsOf, type GapRow, type ReadGroup } from './poller.cycle.ts';
import type { GroupRead } from './poller.reading.ts';
import type { MonitorRow, MonitorSource } from '../monitors.tables.ts';

/**
 * Reddit lists about 1,000 things per listing and then ends, as if there were nothing older: a
 * listing that ended after at least this many things is taken as cut off, one that ended sooner as
 * complete (a small subreddit's whole history).
 */
export const CUT_OFF = 900;

/** Whether the regular read delivers this monitor's matches: not while it owes a stretch (its catch-up stores them, in order). */
export const isCaughtUp = (monitor: MonitorRow) => monitor.resume_from === null;

/**
 * What to read to catch a monitor up: its own subreddits (lower-case, no "r/") per source it wants,
 * 100 per request, leaving out those the directory knows to be unavailable (their listing is refused).
 */
export function catchUpGroups(monitor: MonitorRow, states: Map<string, SubredditsTable['state']>): { names: string[]; source: MonitorSource }[] {
  const readable = [...new Set(subredditsOf(monitor))].filter((name) => (states.get(name) ?? 'ok') === 'ok').sort();
  const sources = JSON.parse(monitor.sources) as MonitorSource[];
  return sources.flatMap((source) => chunk(readable, MAX_SUBREDDITS_PER_LISTING).map((names) => ({ names, source })));
}

/**
 * Whether a read back to `from` stopped short of it: it got past `from` (or Reddit listed nothing)
 * unless it hit the page cap, or the listing ended where Reddit cuts listings off.
 */
export function fellShort(read: GroupRead, from: string): boolean {
  if (read.oldest === null || read.oldest < from) return false;
  return !read.complete || read.items.length >= CUT_OFF;
}

/** The gaps a catch-up leaves: from `from` to the oldest thing read, per read that fell short. */
export function catchUpGaps(reads: ReadGroup[], monitor: MonitorRow, from: string): GapRow[] {
  return reads.flatMap((read) => {
    if (!fellShort(read, from)) return [];
    const names = new Set(read.names);
    const subreddits = (JSON.parse(monitor.subreddits) as string[]).filter((s) => names.has(s.slice(2).toLowerCase()));
    return [{ monitorId: monitor.id, source: read.source, subreddits, from, to: read.oldest! }];
  });
}

/** The stretch a monitor over all of Reddit owes after a pause for credits, per source: the stream cannot read back, so it is a gap. */
export function allOfRedditGaps(monitor: MonitorRow, from: string, to: string): GapRow[] {
  return (JSON.parse(monitor.sources) as MonitorSource[]).map((source) => ({ monitorId: monitor.id, source, subreddits: JSON.parse(monitor.subreddits) as string[], from, to }));
}
