/**
 * Where each kind's newest id is between two readings of the heads (issue 45's 1.15× target): the
 * heads (`/r/all/new`, `/r/all/comments`) cost two requests, so the stream reads them once a minute,
 * not every cycle, and estimates the newest id in between from the rate ids were created at between
 * its last two readings. Pure: stream.usecases.ts keeps one `Frontier` per kind in memory (a restart
 * reads the heads again) and stream.cycle.ts plans against it.
 */
import type { Head } from './stream.cycle.ts';

/** The heads once a minute: 2 requests of the 60 a minute 100 items a second take. */
export const HEADS_EVERY_MS = 60_000;
/**
 * The estimate runs a little short of the rate measured: ids are created in bursts, and an id asked
 * before it exists is a wasted slot, while one left for the next cycle only waits 10 s.
 */
export const ESTIMATE_SHARE = 0.95;
/** Past this, a head reading that failed is not extrapolated further: the stream reads what it knows exists. */
const MAX_EXTRAPOLATION_MS = 2 * HEADS_EVERY_MS;

export interface Frontier {
  /** The highest id known to exist: a head, or an id the walk read (or that lies below one it read). */
  id: number;
  /** About when `id` was created (ISO). */
  at: string;
  /** Ids a second between the last two head readings; null until there are two. */
  rate: number | null;
  /** The last head reading, which the next one measures the rate from. */
  head: Head;
}

/** The frontier after a head reading: the head (if newer than what the walk found), the rate since the last reading. */
export function frontierAfterHead(previous: Frontier | undefined, head: Head): Frontier {
  const seconds = previous ? (Date.parse(head.at) - Date.parse(previous.head.at)) / 1000 : 0;
  const rate = previous && seconds > 0 ? Math.max(0, (head.id - previous.head.id) / seconds) : (previous?.rate ?? null);
  if (previous && previous.id > head.id) return { ...previous, rate, head };
  return { id: head.id, at: head.at, rate, head };
}

/** The frontier once the walk has read up to `readTo` (every id below an id read exists). */
export function frontierAfterWalk(frontier: Frontier, readTo: number, readToAt: string): Frontier {
  return readTo > frontier.id ? { ...frontier, id: readTo, at: readToAt } : frontier;
}

/** The newest id there probably is by `now`: the known one, plus the rate's ids since it was created. */
export function estimateOf(frontier: Frontier, now: Date): number {
  if (frontier.rate === null) return frontier.id;
  const elapsed = Math.min(MAX_EXTRAPOLATION_MS, Math.max(0, now.getTime() - Date.parse(frontier.at)));
  return frontier.id + Math.floor((frontier.rate * ESTIMATE_SHARE * elapsed) / 1000);
}

/** Whether this cycle reads the heads: no frontier or rate yet (a start, a restart), or a minute since the last reading. */
export function headsDue(frontiers: Map<string, Frontier>, kinds: readonly string[], lastReadMs: number | null, now: Date): boolean {
  if (lastReadMs === null || now.getTime() - lastReadMs >= HEADS_EVERY_MS) return true;
  return kinds.some((kind) => frontiers.get(kind)?.rate == null);
}
