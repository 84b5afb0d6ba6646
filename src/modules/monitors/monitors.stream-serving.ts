/**
 * Which of a monitor's sources the site-wide stream (stream/) serves while it runs, so the poller
 * (poller/) stops reading them and the monitor's health says so (issue 45). Pure, and here rather than
 * in either reader's folder: both readers and the health import it, and folders never import each
 * other in a loop. docs/api/monitors-stream.md, "Subreddit monitors".
 */
import { combinedQuery, readsTitles } from '../../shared/matching/query.ts';
import { isAllOfReddit } from './monitors.scope.ts';
import type { MonitorRow, MonitorSource } from './monitors.tables.ts';

/** What the stream covers now for one source, from its committed state (stream/stream.serving.ts). */
export interface StreamCover {
  /**
   * Every item of the source created before this time was asked, or will not be asked by the stream
   * any more: a poller taking over reads back to it (its marks are moved there while the stream serves).
   */
  to: string;
  /** Every item created after this time was (or is being) walked without a skip: the stream's first start or its last jump. */
  since: string;
}

/** Per source; a source absent is not served (the stream is off, stopped, or too far behind). */
export type StreamCovers = Partial<Record<MonitorSource, StreamCover>>;

/** A source the stream has walked but does not serve now: a monitor over all of Reddit is read late, or not at all. */
export interface StreamLag {
  /** Now less the newest item it has read of the source. */
  behindSeconds: number;
  /** No commit for STALE_AFTER_CYCLES cycles: no instance reads (stopped, its lease lost, crashed, failing). */
  stopped: boolean;
  /** Its last commit. */
  lastReadAt: string;
}

/** What the stream serves now and, per source it does not serve although it walked it, how late it is. */
export interface StreamState {
  covers: StreamCovers;
  lags: Partial<Record<MonitorSource, StreamLag>>;
}

type Rule = Pick<MonitorRow, 'keywords' | 'exclude_keywords' | 'query'>;

/**
 * needsCommentTitles by the rule's text: the stream asks it of every monitor each 10-s cycle, and
 * parsing 10,000 queries takes about 0.3 s. A pure function's answers, so a cache cannot go stale;
 * bounded, emptied when full (a server holds a few thousand distinct rules).
 */
const titleReaders = new Map<string, boolean>();
const TITLE_READERS_KEPT = 50_000;

/**
 * Whether the monitor's rule has a `title:` term: a comment read by id has no post title, so the
 * stream cannot judge such a rule on comments (a `-title:x` would even hold for every one of them).
 * Its comments are the poller's alone, whose listings carry the title.
 */
export function needsCommentTitles(monitor: Rule): boolean {
  const rule = `${monitor.keywords}\u0000${monitor.exclude_keywords}\u0000${monitor.query ?? ''}`;
  let reads = titleReaders.get(rule);
  if (reads === undefined) {
    const keywords = JSON.parse(monitor.keywords) as string[];
    reads = readsTitles(combinedQuery({ keywords, excludes: JSON.parse(monitor.exclude_keywords) as string[], query: monitor.query }));
    if (titleReaders.size >= TITLE_READERS_KEPT) titleReaders.clear();
    titleReaders.set(rule, reads);
  }
  return reads;
}

/**
 * The sources of this monitor the stream serves: each it covers now, except comments for a rule with
 * a `title:` term (those keep being polled): the sources it reads without titles (`asStreamReads`).
 */
export function streamSources(monitor: Rule & Pick<MonitorRow, 'sources' | 'subreddits'>, covers: StreamCovers): MonitorSource[] {
  return (JSON.parse(asStreamReads(monitor, 'untitled').sources) as MonitorSource[]).filter((source) => covers[source] !== undefined);
}

/**
 * Whether the stream must find the post titles of the comments it reads for this monitor: one over
 * all of Reddit, watching comments, whose rule has a `title:` term (stream/stream.titles.ts). A
 * monitor naming subreddits gets such comments from the poller instead, whose listings carry titles.
 */
export function needsStreamTitles(monitor: Rule & Pick<MonitorRow, 'sources' | 'subreddits'>): boolean {
  return isAllOfReddit(monitor) && (JSON.parse(monitor.sources) as MonitorSource[]).includes('comments') && needsCommentTitles(monitor);
}

/**
 * The monitor as the stream matches comments with their post's title for it (`titled`) or without
 * (`untitled`): without comments when its rule needs the title and the stream does not give it
 * (a monitor naming subreddits, whose comments the poller reads; or no title found for the comment).
 */
export function asStreamReads<T extends Rule & Pick<MonitorRow, 'sources' | 'subreddits'>>(monitor: T, comments: 'titled' | 'untitled'): T {
  const sources = JSON.parse(monitor.sources) as MonitorSource[];
  if (!sources.includes('comments') || !needsCommentTitles(monitor) || (comments === 'titled' && isAllOfReddit(monitor))) return monitor;
  return { ...monitor, sources: JSON.stringify(sources.filter((source) => source !== 'comments')) };
}
