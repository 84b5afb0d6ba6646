/**
 * Post titles for the comments the stream reads (issue 45). `/api/info` answers a comment without its
 * post's title, which a rule with a `title:` term needs (docs/api/monitors-stream.md, "Titles of
 * comments"). Most comments are under posts of the last hours, which the stream itself read: their
 * titles are kept here, in memory, the newest TITLES_KEPT of them. A comment under an older post gets
 * its title by asking for the post, 100 posts to a request, from the stream's own share, only while a
 * monitor over all of Reddit needs titles on comments.
 */
import type { RedditItem } from '../../../integrations/reddit/reddit.types.ts';

/** About 4.5 hours of Reddit's posts at 6 a second; a title and its key are about 200 bytes: some 20 MB. */
export const TITLES_KEPT = 100_000;
/** Requests a cycle keeps back from the walk for the titles of older posts, while a monitor needs them. */
export const TITLE_REQUESTS_PER_CYCLE = 2;

/** A comment's page is `/r/<name>/comments/<post>/…`: its post's fullname, or null. */
const POST_IN_PAGE = /\/comments\/([0-9a-z]+)\//;
export function postOf(comment: RedditItem): string | null {
  const found = POST_IN_PAGE.exec(comment.permalink);
  return found ? `t3_${found[1]}` : null;
}

/** A comment read by id whose post's title is still unknown (a post's title is never empty on Reddit). */
export const untitled = (item: RedditItem) => item.type === 'comment' && item.title === '';

export function createTitleBook(max = TITLES_KEPT) {
  // A Map keeps insertion order: the first key is the title kept longest, the one to let go.
  const titles = new Map<string, string>();
  return {
    /** Keeps the titles of the posts among `items`. */
    remember(items: RedditItem[]): void {
      for (const item of items) {
        if (item.type !== 'post') continue;
        titles.delete(item.id);
        titles.set(item.id, item.title);
        if (titles.size > max) titles.delete(titles.keys().next().value!);
      }
    },
    /** The items, each comment without a title given its post's where it is known. */
    titled(items: RedditItem[]): RedditItem[] {
      return items.map((item) => {
        const title = untitled(item) ? titles.get(postOf(item) ?? '') : undefined;
        return title === undefined ? item : { ...item, title };
      });
    },
    /** The posts whose titles comments among `items` still lack, each once. */
    missing(items: RedditItem[]): string[] {
      return [...new Set(items.filter(untitled).flatMap((item) => postOf(item) ?? []))];
    },
  };
}

export type TitleBook = ReturnType<typeof createTitleBook>;
