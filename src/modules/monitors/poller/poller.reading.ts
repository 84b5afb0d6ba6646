/**
 * How the poller reads one group of subreddits (up to 100 in one `/r/a+b+c/new` or `/comments` path)
 * for one source: newest first, page after page with `after`, until it is past what it read last time
 * (the marks), the listing ends, or the per-cycle page cap is hit.
 *
 * Reddit lists things by position, not by id: recorded answers show a comment with a lower id listed
 * above one with a higher id (asyncpraw's cassettes TestSubredditStreams.test_comments__with_pause and
 * …__with_continue_after_id; ../shared/reference/reddit-2026.md). So "new" is decided by time and
 * fullname: each mark is the newest `created_at` read, and the fullnames read in the last
 * `LISTING_OVERLAP_MS` before it. A read goes back to the mark less the overlap, and a thing in that
 * stretch is new unless its fullname was read already, whatever its id.
 */
import { MONITORS_CONSUMER } from '../../../integrations/reddit/reddit.budget.ts';
import type { RedditClient } from '../../../integrations/reddit/reddit.client.ts';
import type { RedditItem, UnavailableReason } from '../../../integrations/reddit/reddit.types.ts';
import type { MonitorSource } from '../monitors.tables.ts';

/**
 * How far before a mark the next read looks again. Reddit's listings show things 10–12 s after their
 * `created_utc` (the recordings' `Date` header against their newest item), and the things listed out
 * of id order were created within a second of their neighbours; 30 s covers a thing listed up to
 * half a minute later than the newest one read, at no extra request while the page holds it.
 */
export const LISTING_OVERLAP_MS = 30_000;
/**
 * A thing dated further ahead of this server's clock than this is not believed: clocks that keep
 * time differ by far less, and a date from the future would hold the mark ahead of everything.
 */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** How far one subreddit and source has been read. */
export interface Mark {
  /** The newest `created_at` read (never ahead of the read's own time). */
  at: string;
  /** Fullname → created_at of what was read in the overlap before `at`. */
  seen: Record<string, string>;
}

export interface GroupRead {
  /** Things not read before (all of them for a subreddit never read, back to `since`), in listing order. */
  items: RedditItem[];
  /** Every thing read in this group, by fullname: what the new marks remember of the overlap. */
  read: Map<string, RedditItem>;
  /** The newest `created_at` read (capped at the read's time): every subreddit of the group has been read up to it. */
  top: string | null;
  /** The oldest `created_at` read; when `complete` is false, what lies between it and a mark (or `since`) was not read. */
  oldest: string | null;
  /** The reading reached every mark (less the overlap) and `since`, or the listing's end before any mark fell off it. */
  complete: boolean;
  requests: number;
  /** Things left out because they cannot be right: of a subreddit not asked for, of the wrong kind, or dated in the future. */
  ignored: { foreign: number; implausible: number };
  /** A one-name path Reddit refused for itself (private, banned, …): nothing was read. */
  refused?: UnavailableReason;
}

const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** Where a read of these names may stop: the earliest of every mark less the overlap, and `since` for names never read. */
function stopOf(names: string[], marks: Map<string, Mark>, since: string | null): string | null {
  let stop: string | null = null;
  for (const name of names) {
    const mark = marks.get(name);
    const from = mark ? shift(mark.at, -LISTING_OVERLAP_MS) : since;
    if (from === null) return null; // a name never read and no time to read it back to: read as far as the listing goes
    if (stop === null || from < stop) stop = from;
  }
  return stop;
}

/** Whether a thing read for this group can be right; otherwise it is counted and left out. */
function verdict(item: RedditItem, names: Set<string>, source: MonitorSource, latest: string): 'ok' | 'foreign' | 'implausible' {
  if (!names.has(item.subreddit.toLowerCase())) return 'foreign';
  const kind = source === 'posts' ? 't3_' : 't1_';
  if (!item.id.startsWith(kind) || !/^t[13]_[0-9a-z]{1,13}$/.test(item.id)) return 'implausible';
  if (Number.isNaN(Date.parse(item.created_at)) || item.created_at > latest) return 'implausible';
  return 'ok';
}

/** Whether a thing of a subreddit with this mark (absent: never read) was not read before. */
function isNew(item: RedditItem, mark: Mark | undefined, since: string | null): boolean {
  if (!mark) return since === null || item.created_at >= since;
  return item.created_at >= shift(mark.at, -LISTING_OVERLAP_MS) && !(item.id in mark.seen);
}

/**
 * Reads `names` (lower-case, no "r/") since their `marks` (by name; absent: never read). For names
 * never read, it reads back to `since` (when the monitors that want them started watching): things
 * from before are never matched. It stops at the page cap, and says whether it got all the way.
 */
export async function readGroup(
  reddit: Pick<RedditClient, 'listing'>,
  group: { names: string[]; source: MonitorSource; marks: Map<string, Mark>; since: string | null; now: Date },
  maxPages: number,
): Promise<GroupRead> {
  const stop = stopOf(group.names, group.marks, group.since);
  const wanted = new Set(group.names);
  const readAt = group.now.toISOString();
  const latest = shift(readAt, FUTURE_TOLERANCE_MS);
  const read: GroupRead = { items: [], read: new Map(), top: null, oldest: null, complete: false, requests: 0, ignored: { foreign: 0, implausible: 0 } };
  let after: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const answer = await reddit.listing({ subreddits: group.names, source: group.source, after, consumer: MONITORS_CONSUMER });
    read.requests++;
    if (!answer.ok) return { ...read, refused: answer.reason };
    for (const item of answer.items) {
      const judged = verdict(item, wanted, group.source, latest);
      if (judged !== 'ok') {
        read.ignored[judged]++;
        continue;
      }
      // A thing listed again on a later page (newer ones pushed it down meanwhile) is read once.
      if (read.read.has(item.id)) continue;
      read.read.set(item.id, item);
      const at = item.created_at < readAt ? item.created_at : readAt;
      if (read.top === null || at > read.top) read.top = at;
      if (read.oldest === null || item.created_at < read.oldest) read.oldest = item.created_at;
      if (isNew(item, group.marks.get(item.subreddit.toLowerCase()), group.since)) read.items.push(item);
    }
    const pastStop = stop !== null && read.oldest !== null && read.oldest < stop;
    if (pastStop) {
      read.complete = true;
      break;
    }
    if (!answer.after || answer.items.length === 0) {
      // Reddit lists about 1,000 things: the listing ended, so nothing older can be read. That is all
      // there was unless a mark fell off its end (more than that was listed since the last read).
      const oldest = read.oldest;
      read.complete = group.names.every((name) => {
        const mark = group.marks.get(name);
        return !mark || oldest === null || oldest <= mark.at;
      });
      break;
    }
    after = answer.after;
  }
  return read;
}

/** The mark a subreddit gets after a good read: read up to `top`, remembering what was read in the overlap before it. */
export function nextMark(old: Mark | undefined, name: string, read: Pick<GroupRead, 'top' | 'read'>): Mark | undefined {
  const at = read.top !== null && (!old || read.top > old.at) ? read.top : old?.at;
  if (at === undefined) return undefined;
  const from = shift(at, -LISTING_OVERLAP_MS);
  const seen: Record<string, string> = {};
  for (const [id, created] of Object.entries(old?.seen ?? {})) if (created >= from) seen[id] = created;
  for (const item of read.read.values()) {
    if (item.subreddit.toLowerCase() === name && item.created_at >= from) seen[item.id] = item.created_at;
  }
  return { at, seen };
}
