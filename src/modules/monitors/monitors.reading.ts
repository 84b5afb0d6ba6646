/**
 * How the poller reads one group of subreddits (up to 100 in one `/r/a+b+c/new` or `/comments` path)
 * for one source: newest first, page after page with `after`, until it reaches what it read last
 * time (the high-water marks), the listing ends, or the per-cycle page cap is hit. Reddit's ids are
 * base 36 and grow over time, so "newer than the mark" is a comparison of ids.
 */
import { MONITORS_CONSUMER } from '../../integrations/reddit/reddit.budget.ts';
import type { RedditClient } from '../../integrations/reddit/reddit.client.ts';
import type { RedditItem, UnavailableReason } from '../../integrations/reddit/reddit.types.ts';
import type { MonitorSource } from './monitors.tables.ts';

/** Orders two fullnames of one kind ("t3_abc"): -1, 0 or 1, as their base-36 numbers do. */
export function compareIds(a: string, b: string): number {
  const x = a.slice(a.indexOf('_') + 1);
  const y = b.slice(b.indexOf('_') + 1);
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

export interface Mark {
  id: string;
  at: string;
}

export interface GroupRead {
  /** Things newer than their own subreddit's mark (all of them for a subreddit never read), newest first. */
  items: RedditItem[];
  /** The newest thing the listing showed: every subreddit of the group has been read up to it. */
  top: Mark | null;
  /** The oldest thing read; when `complete` is false, what lies between it and a mark (or `since`) was not read. */
  oldest: Mark | null;
  /** The reading reached every mark and `since`, or the listing's end before any mark fell off it. */
  complete: boolean;
  requests: number;
  /** A one-name path Reddit refused for itself (private, banned, …): nothing was read. */
  refused?: UnavailableReason;
}

/**
 * Reads `names` (lower-case, no "r/") newer than `marks` (by name; absent: never read). For names
 * never read, it reads back to `since` (when the monitors that want them started watching): things
 * from before are never matched. It stops at the page cap, and says whether it got all the way.
 */
export async function readGroup(
  reddit: Pick<RedditClient, 'listing'>,
  group: { names: string[]; source: MonitorSource; marks: Map<string, Mark>; since: string | null },
  maxPages: number,
): Promise<GroupRead> {
  const known = group.names.map((name) => group.marks.get(name)).filter((mark): mark is Mark => mark !== undefined);
  const stop = known.length === 0 ? null : known.reduce((low, mark) => (compareIds(mark.id, low.id) < 0 ? mark : low));
  const since = known.length < group.names.length ? group.since : null;
  const read: GroupRead = { items: [], top: null, oldest: null, complete: false, requests: 0 };
  let after: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const answer = await reddit.listing({ subreddits: group.names, source: group.source, after, consumer: MONITORS_CONSUMER });
    read.requests++;
    if (!answer.ok) return { ...read, refused: answer.reason };
    for (const item of answer.items) {
      read.top ??= { id: item.id, at: item.created_at };
      read.oldest = { id: item.id, at: item.created_at };
      const mark = group.marks.get(item.subreddit.toLowerCase());
      if (!mark || compareIds(item.id, mark.id) > 0) read.items.push(item);
    }
    const oldest = read.oldest;
    const pastMark = stop === null || (oldest !== null && compareIds(oldest.id, stop.id) <= 0);
    if (pastMark && (since === null || (oldest !== null && oldest.at < since))) {
      read.complete = true;
      break;
    }
    if (!answer.after || answer.items.length === 0) {
      // Reddit lists about 1,000 things: a mark that fell off the end was passed by more than that.
      read.complete = pastMark;
      break;
    }
    after = answer.after;
  }
  return read;
}
