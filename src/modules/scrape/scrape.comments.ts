/**
 * The comments side of a scrape. Reddit's search does not cover comments, so they come from the
 * subreddits' recent-comments listing (`/r/a+b/comments`), newest first, read back to the start of the
 * scrape's `time` window, and are matched here the way posts are re-checked (scrape.matching.ts).
 * Reddit lists only about the newest 1,000 comments of a listing, so on a busy subreddit the reading
 * ends hours back, not at the window's start: docs/api/scrape.md says so.
 */
import type { RedditClient } from '../../integrations/reddit/reddit.client.ts';
import { MAX_SUBREDDITS_PER_LISTING, chunk } from '../../integrations/reddit/reddit.query.ts';
import type { RedditItem, UnavailableReason } from '../../integrations/reddit/reddit.types.ts';
import { keywordFinder, newestFirst, type ScrapeRequest, type ScrapeResult } from './scrape.matching.ts';

/** 10 pages of 100: about all Reddit lists of one listing, so reading further would only repeat the last page. */
export const MAX_COMMENT_PAGES = 10;

const SECONDS: Record<ScrapeRequest['time'], number | null> = {
  hour: 3_600,
  day: 86_400,
  week: 7 * 86_400,
  month: 30 * 86_400,
  year: 365 * 86_400,
  all: null,
};

/** The start of the scrape's `time` window in ms, or null for `all`. */
export const windowStart = (time: ScrapeRequest['time'], now: Date): number | null =>
  SECONDS[time] === null ? null : now.getTime() - SECONDS[time] * 1000;

export interface CommentsRead {
  /** Newest first per group of subreddits, all within the window. */
  items: RedditItem[];
  /** Subreddits whose listing was refused (names without "r/"). */
  unavailable: { subreddit: string; reason: UnavailableReason }[];
  /** Comments Reddit sent that could not be read. */
  skipped: number;
}

/**
 * Reads the comments of `subreddits` (names without "r/", already known to be available) made since
 * `since` (ms; null: as far back as Reddit lists). One combined listing per 100 subreddits; when Reddit
 * refuses a combined path (it only does when one name is left of it), each name is read on its own so
 * the refused one can be named.
 */
export async function readComments(
  reddit: Pick<RedditClient, 'listing'>,
  input: { subreddits: string[]; since: number | null; accountId: string },
): Promise<CommentsRead> {
  const read: CommentsRead = { items: [], unavailable: [], skipped: 0 };
  const readGroup = async (names: string[]): Promise<void> => {
    let after: string | null = null;
    for (let page = 0; page < MAX_COMMENT_PAGES; page++) {
      const answer = await reddit.listing({ subreddits: names, source: 'comments', after, consumer: input.accountId });
      if (!answer.ok) {
        if (names.length === 1) read.unavailable.push({ subreddit: names[0]!, reason: answer.reason });
        else for (const name of names) await readGroup([name]);
        return;
      }
      read.skipped += answer.skipped;
      const inWindow = answer.items.filter((item) => input.since === null || Date.parse(item.created_at) >= input.since);
      read.items.push(...inWindow);
      // Newest first: once a page reaches past the window, every later page is older still.
      if (!answer.after || inWindow.length < answer.items.length || answer.items.length === 0) return;
      after = answer.after;
    }
  };
  for (const group of chunk(input.subreddits, MAX_SUBREDDITS_PER_LISTING)) await readGroup(group);
  return read;
}

/** The comments of the requested subreddits whose text contains a keyword (keywordFinder, as for posts), as results. */
export function selectComments(items: RedditItem[], request: ScrapeRequest): ScrapeResult[] {
  const wanted = new Set(request.subreddits.map((s) => s.slice(2).toLowerCase()));
  const byId = new Map<string, ScrapeResult>();
  const keywordsIn = keywordFinder(request);
  for (const item of items) {
    if (item.type !== 'comment' || !wanted.has(item.subreddit.toLowerCase()) || byId.has(item.id)) continue;
    if (item.nsfw && !request.include_nsfw) continue;
    const matched = keywordsIn(item);
    if (matched === null) continue;
    byId.set(item.id, {
      type: 'comment',
      id: item.id,
      subreddit: `r/${item.subreddit}`,
      title: item.title,
      body: item.body,
      author: item.author,
      url: item.permalink,
      permalink: item.permalink,
      created_at: item.created_at,
      score: item.score,
      num_comments: 0,
      nsfw: item.nsfw,
      matched_keywords: matched,
    });
  }
  return [...byId.values()];
}

/**
 * Posts and comments under one `limit`: which results stay is decided by the scrape's sort (`new`: the
 * newest; `top` and `relevance`: the highest score, then the newest), and they are listed newest first,
 * as posts always have been.
 */
export function mergeResults(posts: ScrapeResult[], comments: ScrapeResult[], request: ScrapeRequest): ScrapeResult[] {
  const ranked = [...posts, ...comments].sort(request.sort === 'new' ? newestFirst : (a, b) => b.score - a.score || newestFirst(a, b));
  return ranked.slice(0, request.limit).sort(newestFirst);
}
