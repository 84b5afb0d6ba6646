/**
 * The stream's recent items, in memory (issue 45, "a query's cost before it runs"): every post and
 * comment the site-wide stream read in the last hour, at most RING_MAX_ITEMS of them (the oldest go
 * first), never stored. A preview counts what a monitor's rule would have matched among them
 * (stream.preview.ts). It lives in the process that runs the stream; another instance's is empty.
 */
import type { RedditItem } from '../../../integrations/reddit/reddit.types.ts';

/** About 70 minutes of all of Reddit at 50 items a second; at a few hundred bytes an item, tens of MB at most. */
export const RING_MAX_ITEMS = 200_000;
export const RING_WINDOW_MS = 60 * 60 * 1000;

export interface RingWindow {
  items: RedditItem[];
  /** When the oldest item kept was read; null when none is kept. */
  startedAt: Date | null;
}

export function createStreamRing(options: { clock: () => Date; maxItems?: number; windowMs?: number }) {
  const maxItems = options.maxItems ?? RING_MAX_ITEMS;
  const windowMs = options.windowMs ?? RING_WINDOW_MS;
  let entries: { item: RedditItem; at: number }[] = [];
  let head = 0;
  /** Ids kept, so an item read twice (a cycle read again after a lost lease) counts once. */
  const kept = new Set<string>();

  function prune(now: number) {
    while (head < entries.length && (entries.length - head > maxItems || entries[head]!.at < now - windowMs)) kept.delete(entries[head++]!.item.id);
    // Compacted now and then, so the array does not grow for ever.
    if (head > 1024 && head * 2 > entries.length) {
      entries = entries.slice(head);
      head = 0;
    }
  }

  return {
    add(items: RedditItem[]): void {
      const at = options.clock().getTime();
      for (const item of items) {
        if (kept.has(item.id)) continue;
        kept.add(item.id);
        entries.push({ item, at });
      }
      prune(at);
    },
    window(): RingWindow {
      prune(options.clock().getTime());
      const live = entries.slice(head);
      return { items: live.map((entry) => entry.item), startedAt: live.length === 0 ? null : new Date(live[0]!.at) };
    },
  };
}

export type StreamRing = ReturnType<typeof createStreamRing>;
