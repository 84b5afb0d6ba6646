/**
 * What the poller leaves to the site-wide stream while it runs (issue 45; docs/api/monitors-poller.md,
 * "While the site-wide stream runs"). Pure: the poller gives it the active monitors, what the stream
 * covers now and when each subreddit was last read well, and reads only what it returns as `polled`.
 *
 * A monitor's source is served when the stream covers it (monitors.stream-serving.ts, with its `title:`
 * exception) and the stream has walked without a skip since each of its subreddits was last read well
 * (or since the monitor started watching): only then is nothing between that read and the stream's
 * coverage unread. A subreddit is polled while any monitor's unserved source wants it; the others
 * (`served`) are read by no one here, and their marks move to the stream's `to` in the cycle's commit,
 * so a poller taking over reads back only to where the stream stopped covering: no false gap, no miss.
 */
import { streamSources, type StreamCovers } from '../monitors.stream-serving.ts';
import type { MonitorRow, MonitorSource } from '../monitors.tables.ts';
import { subredditsOf } from './poller.cycle.ts';
import { LISTING_OVERLAP_MS } from './poller.reading.ts';
import type { LastReads } from './poller.schedule.ts';

export interface StreamSplit {
  /** The monitors as the poller reads them: only their unserved sources; a monitor served in full is left out. */
  polled: MonitorRow[];
  /** Per source, the subreddits no polled monitor wants: their marks move to `to`. */
  served: { source: MonitorSource; names: string[]; to: string }[];
}

const SOURCES: MonitorSource[] = ['posts', 'comments'];

/** Whether the stream has walked without a skip since this subreddit was last read well (less the listings' overlap) or the monitor started watching. */
function continuous(name: string, source: MonitorSource, monitor: MonitorRow, since: string, lastReads: LastReads): boolean {
  const readAt = lastReads[source].get(name);
  const readFrom = readAt === undefined ? '' : new Date(Date.parse(readAt) - LISTING_OVERLAP_MS).toISOString();
  const from = readFrom > monitor.watch_from ? readFrom : monitor.watch_from;
  return from >= since;
}

export function splitByStream(monitors: MonitorRow[], covers: StreamCovers, lastReads: LastReads): StreamSplit {
  const polled: MonitorRow[] = [];
  const wanted: Record<MonitorSource, Set<string>> = { posts: new Set(), comments: new Set() };
  const pollNames: Record<MonitorSource, Set<string>> = { posts: new Set(), comments: new Set() };
  for (const monitor of monitors) {
    const sources = JSON.parse(monitor.sources) as MonitorSource[];
    const names = subredditsOf(monitor);
    const byStream = new Set(
      streamSources(monitor, covers).filter((source) => names.every((name) => continuous(name, source, monitor, covers[source]!.since, lastReads))),
    );
    const unserved = sources.filter((source) => !byStream.has(source));
    for (const source of sources) for (const name of names) (byStream.has(source) ? wanted : pollNames)[source].add(name);
    if (unserved.length === sources.length) polled.push(monitor);
    else if (unserved.length > 0) polled.push({ ...monitor, sources: JSON.stringify(unserved) });
  }
  const served = SOURCES.flatMap((source) => {
    const names = [...wanted[source]].filter((name) => !pollNames[source].has(name)).sort();
    return names.length > 0 ? [{ source, names, to: covers[source]!.to }] : [];
  });
  return { polled, served };
}
