/**
 * Whether the site-wide stream serves subreddit monitors now, per source, from its committed state
 * (issue 45; docs/api/monitors-stream.md, "Subreddit monitors"). Pure: stream.serving.usecases.ts
 * reads the rows, the poller (poller/poller.serving.ts) and the monitors' health use the answer.
 *
 * A kind is served while the stream is alive and near the head: its position was committed within
 * STALE_AFTER_CYCLES cycles (a reader that stopped, lost its lease or crashed stops serving within
 * half a minute), and its lag (now less the newest item it has read) is under half of
 * REDDIT_STREAM_MAX_LAG_SECONDS, so the poller takes over well before the stream would skip ids.
 */
import type { StreamCovers, StreamState } from '../monitors.stream-serving.ts';
import { RETRY_DELAY_MS, SOURCE_OF, STREAM_INTERVAL_SECONDS } from './stream.cycle.ts';
import type { StreamKind } from './stream.tables.ts';

/** Cycles without a commit after which the stream no longer serves: one late or failed cycle is not a stop. */
export const STALE_AFTER_CYCLES = 3;

export interface ServingRow {
  kind: StreamKind;
  read_to_at: string;
  updated_at: string;
  walked_since: string | null;
}

/** Now less the newest item the stream has read of the kind. */
const lagMsOf = (row: ServingRow, now: Date) => Math.max(0, now.getTime() - Date.parse(row.read_to_at));
/** No commit for STALE_AFTER_CYCLES cycles: no instance reads the kind. */
const stopped = (row: ServingRow, now: Date) => Date.parse(row.updated_at) < now.getTime() - STALE_AFTER_CYCLES * STREAM_INTERVAL_SECONDS * 1000;

/**
 * What the stream covers, per source it serves. `to` is its position's time less what may still be
 * unread below it: an id left out of its first answer waits up to RETRY_DELAY_MS for its second asking,
 * and was first asked when the stream was about as far behind as now; a poller taking over reads back
 * to there (and its own overlap), so an id the stream would have asked again is not lost if it stops.
 */
export function coversOf(rows: ServingRow[], now: Date, maxLagSeconds: number): StreamCovers {
  const covers: StreamCovers = {};
  for (const row of rows) {
    if (row.walked_since === null || stopped(row, now)) continue;
    const lagMs = lagMsOf(row, now);
    if (lagMs >= (maxLagSeconds * 1000) / 2) continue;
    const to = new Date(Date.parse(row.read_to_at) - RETRY_DELAY_MS - lagMs).toISOString();
    covers[SOURCE_OF[row.kind]] = { to, since: row.walked_since };
  }
  return covers;
}

/**
 * What the monitors' health shows: what the stream covers and, per source it walked but does not serve
 * (stopped, or half the lag bound behind), how late it is. A monitor over all of Reddit has no poller to
 * take over, so that lateness is its own.
 */
export function stateOf(rows: ServingRow[], now: Date, maxLagSeconds: number): StreamState {
  const covers = coversOf(rows, now, maxLagSeconds);
  const lags: StreamState['lags'] = {};
  for (const row of rows) {
    const source = SOURCE_OF[row.kind];
    if (row.walked_since === null || covers[source]) continue;
    lags[source] = { behindSeconds: Math.round(lagMsOf(row, now) / 1000), stopped: stopped(row, now), lastReadAt: row.updated_at };
  }
  return { covers, lags };
}
