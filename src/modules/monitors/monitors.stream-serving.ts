/**
 * Which of a monitor's sources the site-wide stream (stream/) serves while it runs, so the poller
 * (poller/) stops reading them and the monitor's health says so (issue 45). Pure, and here rather than
 * in either reader's folder: both readers and the health import it, and folders never import each
 * other in a loop. docs/api/monitors-stream.md, "Subreddit monitors".
 */
import { combinedQuery, readsTitles } from '../../shared/matching/query.ts';
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

/**
 * The sources of this monitor the stream serves: each it covers now, except comments for a rule with
 * a `title:` term (a comment read by id has no post title: those comments keep being polled).
 */
export function streamSources(monitor: Pick<MonitorRow, 'sources' | 'keywords' | 'exclude_keywords' | 'query'>, covers: StreamCovers): MonitorSource[] {
  const sources = (JSON.parse(monitor.sources) as MonitorSource[]).filter((source) => covers[source] !== undefined);
  if (!sources.includes('comments')) return sources;
  const rule = combinedQuery({
    keywords: JSON.parse(monitor.keywords) as string[],
    excludes: JSON.parse(monitor.exclude_keywords) as string[],
    query: monitor.query,
  });
  return readsTitles(rule) ? sources.filter((source) => source !== 'comments') : sources;
}
