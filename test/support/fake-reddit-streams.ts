/**
 * The fake Reddit's newest-first listings, `/r/{a+b}/new` (posts) and `/r/{a+b}/comments` (comments),
 * the shared id sequence behind `addPost`/`addComment`, and the per-minute rate window on `fake.clock`
 * (kept apart to keep fake-reddit.ts short; see the endpoint list there).
 *
 * - Listings are ordered by position, newest first: the order the items were listed in (`fake.posts` and
 *   `fake.comments` are in that order, the last one on top), not by id. Recorded answers of
 *   `/r/<sub>/comments` (asyncpraw's cassettes TestSubredditStreams.test_comments__with_pause and
 *   …__with_continue_after_id) show a comment with a lower id listed above one with a higher id, within
 *   the same second: `addComment({ …, listedLate: true })` and `addPost({ …, listedLate: true })` do that
 *   (an id below the newest one's, listed on top). `limit` ≤ 100 (default 25); `after`/`before` are
 *   fullnames (t3_…/t1_…) read by position, and by id when the item is gone, so a deleted item still
 *   pages. Like Reddit, only the newest 1,000 items of a listing can be reached at all. The answer's
 *   `after` names the last child when older reachable items remain, `before` the first child when newer
 *   ones exist; otherwise null.
 * - Every item is listed, NSFW or not (a subreddit's own listing does not hide them; `over_18` says so).
 */
import type { FakePost } from './fake-reddit.ts';
import { postThing, slug } from './fake-reddit-listings.ts';

type Json = Record<string, unknown>;

export interface FakeComment {
  /** Without "t1_". */
  id: string;
  subreddit: string;
  /** The post it was written under, without "t3_". */
  link_id: string;
  link_title: string;
  body: string;
  author?: string;
  created_utc: number;
  /** Its post's flag. */
  over_18?: boolean;
  score?: number;
  /** Fields sent as given, over the generated ones (an unreadable comment, say). */
  raw?: Record<string, unknown>;
}

export interface NewPost {
  subreddit: string;
  title: string;
  selftext?: string;
  created_utc?: number;
  over_18?: boolean;
  author?: string;
  score?: number;
  flair?: string;
  /** Listed above the newest item with a lower id than it, as Reddit sometimes lists (see the top of this file). */
  listedLate?: boolean;
}

export interface NewComment {
  subreddit: string;
  body: string;
  /** Default: the title of the post it is under, else "Post <id>". */
  link_title?: string;
  /** Without "t3_"; default: the subreddit's newest post, else a fresh id (a post the fake does not list). */
  link_id?: string;
  created_utc?: number;
  author?: string;
  over_18?: boolean;
  score?: number;
  /** Listed above the newest item with a lower id than it, as Reddit sometimes lists (see the top of this file). */
  listedLate?: boolean;
}

/** How deep Reddit lets a listing be paged: about 1,000 items, then `after` comes back null. */
export const LISTING_DEPTH = 1000;
/** The first id `addPost`/`addComment` hand out: above every id written by hand in the tests ("zzzzz" + 1). */
const FIRST_ID = Number.parseInt('100000', 36);
const MINUTE_MS = 60_000;

/** Base-36 ids compared as numbers (shorter is older), without losing precision on long ids. */
export const compareIds = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

const idOf = (fullname: string | null): string | null => (fullname ? fullname.replace(/^t[0-9]_/, '') : null);

/**
 * `addPost` and `addComment` over the fake's arrays: one increasing id sequence for both, as Reddit has.
 * It steps by 2, so an item listed late can take a free odd id below the newest one.
 */
export function createStreamWriters(fake: { posts: FakePost[]; comments: FakeComment[]; clock: () => number }) {
  let next = FIRST_ID;
  let newest = FIRST_ID; // the newest id listed (a comment's made-up post id is not)
  const late = new Set<number>();
  const nextId = (listed: boolean, listedLate = false) => {
    if (!listedLate) {
      if (listed) newest = next;
      return ((next += 2) - 2).toString(36);
    }
    let id = newest - 1;
    while (late.has(id)) id -= 2;
    late.add(id);
    return id.toString(36);
  };
  const nowSeconds = () => Math.floor(fake.clock() / 1000);
  return {
    addPost(input: NewPost): FakePost {
      const { listedLate, ...fields } = input;
      const post: FakePost = { ...fields, id: nextId(true, listedLate), created_utc: input.created_utc ?? nowSeconds() };
      fake.posts.push(post);
      return post;
    },
    addComment(input: NewComment): FakeComment {
      const id = nextId(true, input.listedLate);
      const post = input.link_id ? fake.posts.find((p) => p.id === input.link_id) : newestPostOf(fake.posts, input.subreddit);
      const linkId = input.link_id ?? post?.id ?? nextId(false);
      const comment: FakeComment = {
        subreddit: input.subreddit,
        body: input.body,
        link_id: linkId,
        link_title: input.link_title ?? post?.title ?? `Post ${linkId}`,
        author: input.author,
        over_18: input.over_18 ?? post?.over_18 ?? false,
        score: input.score,
        id,
        created_utc: input.created_utc ?? nowSeconds(),
      };
      fake.comments.push(comment);
      return comment;
    },
  };
}

function newestPostOf(posts: FakePost[], subreddit: string): FakePost | undefined {
  const lower = subreddit.toLowerCase();
  for (let i = posts.length - 1; i >= 0; i--) if (posts[i]!.subreddit.toLowerCase() === lower) return posts[i];
  return undefined;
}

/** A comment as Reddit's `/comments` listing `data` (t1). */
export function commentThing(c: FakeComment): Json {
  const postPath = `/r/${c.subreddit}/comments/${c.link_id}/${slug(c.link_title)}/`;
  return {
    name: `t1_${c.id}`,
    id: c.id,
    body: c.body,
    author: c.author ?? 'fake_user',
    subreddit: c.subreddit,
    subreddit_name_prefixed: `r/${c.subreddit}`,
    link_id: `t3_${c.link_id}`,
    parent_id: `t3_${c.link_id}`,
    link_title: c.link_title,
    link_permalink: `https://www.reddit.com${postPath}`,
    permalink: `${postPath}${c.id}/`,
    created_utc: c.created_utc,
    over_18: c.over_18 ?? false,
    score: c.score ?? 1,
    ...c.raw,
  };
}

/**
 * One page of a newest-first listing of `items` (posts or comments, in listing order: the last one on
 * top) restricted to the lower-case `names`. Read from the end, so a page costs the items above it,
 * not the whole history.
 */
export function streamListing<T extends { id: string; subreddit: string }>(
  items: T[],
  kind: 't1' | 't3',
  names: Set<string>,
  params: URLSearchParams,
): Json {
  const limit = Math.min(100, Math.max(1, Number(params.get('limit')) || 25));
  const after = idOf(params.get('after'));
  const before = after ? null : idOf(params.get('before'));
  const cursor = after ?? before;
  const list = [...reachable(items, names)];
  // Where the cursor sits: by position while it is listed; an item that is gone is placed by its id.
  let at = list.length;
  if (cursor !== null) {
    const listed = list.findIndex((item) => item.id === cursor);
    const lower = list.findIndex((item) => compareIds(item.id, cursor) < 0);
    at = listed >= 0 ? listed : lower >= 0 ? lower : list.length;
  }
  const start = after !== null ? (list[at]?.id === after ? at + 1 : at) : 0;
  const children = before !== null ? list.slice(0, at).slice(-limit) : list.slice(start, start + limit);
  const olderExists = before !== null ? at < list.length : start + limit < list.length;
  const newerExists = before !== null ? at > limit : start > 0;
  const toThing = (item: T) => (kind === 't3' ? postThing(item as unknown as FakePost) : commentThing(item as unknown as FakeComment));
  return {
    kind: 'Listing',
    data: {
      after: olderExists && children.length > 0 ? `${kind}_${children[children.length - 1]!.id}` : null,
      dist: children.length,
      modhash: '',
      geo_filter: '',
      children: children.map((item) => ({ kind, data: toThing(item) })),
      before: newerExists && children.length > 0 ? `${kind}_${children[0]!.id}` : null,
    },
  };
}

/** The items of `names` a listing can reach: the newest 1,000 by position. */
function* reachable<T extends { id: string; subreddit: string }>(items: T[], names: Set<string>): Generator<T> {
  let count = 0;
  for (let i = items.length - 1; i >= 0 && count < LISTING_DEPTH; i--) {
    const item = items[i]!;
    if (!names.has(item.subreddit.toLowerCase())) continue;
    count++;
    yield item;
  }
}

/**
 * Whether a lower-case name has a post or a comment: an index kept up to date as the arrays grow (read
 * again from the start when one is replaced or shortened), so a check does not scan the history.
 */
export function createSubredditIndex(source: { posts: FakePost[]; comments: FakeComment[] }): (name: string) => boolean {
  let read = new Map<object, number>();
  let names = new Set<string>();
  return (name) => {
    const arrays = [source.posts, source.comments];
    const replaced = read.size > 0 && arrays.some((items) => !read.has(items));
    if (replaced || arrays.some((items) => (read.get(items) ?? 0) > items.length)) {
      read = new Map();
      names = new Set();
    }
    for (const items of arrays) {
      for (let i = read.get(items) ?? 0; i < items.length; i++) names.add(items[i]!.subreddit.toLowerCase());
      read.set(items, items.length);
    }
    return names.has(name);
  };
}

/**
 * The X-Ratelimit-* headers of one API call, and whether it is refused. With `limitPerMinute` set, a
 * window per clock minute: every call counts (refused ones too, as on Reddit), Remaining = limit − used,
 * Reset = seconds to the window's end, and a call beyond the limit is refused (the caller answers 429
 * with Retry-After). Without it, the fixed `rateLimit` figures (default 600 / 600 s) and a running count.
 */
export function createRateWindow(fake: {
  clock: () => number;
  limitPerMinute: number | null;
  rateLimit: { remaining: number; reset: number } | null;
}) {
  let window = Number.NaN;
  let usedInWindow = 0;
  let usedEver = 0;
  return (): { headers: Record<string, string>; refused: boolean } => {
    usedEver++;
    if (fake.limitPerMinute === null) {
      const limits = fake.rateLimit ?? { remaining: 600, reset: 600 };
      const headers = { 'x-ratelimit-remaining': limits.remaining.toFixed(1), 'x-ratelimit-used': String(usedEver), 'x-ratelimit-reset': String(limits.reset) };
      return { headers, refused: false };
    }
    const now = fake.clock();
    const start = now - (now % MINUTE_MS);
    if (start !== window) {
      window = start;
      usedInWindow = 0;
    }
    usedInWindow++;
    const reset = String(Math.max(1, Math.ceil((start + MINUTE_MS - now) / 1000)));
    const headers = {
      'x-ratelimit-remaining': Math.max(0, fake.limitPerMinute - usedInWindow).toFixed(1),
      'x-ratelimit-used': String(usedInWindow),
      'x-ratelimit-reset': reset,
    };
    const refused = usedInWindow > fake.limitPerMinute;
    return { headers: refused ? { ...headers, 'retry-after': reset } : headers, refused };
  };
}

/**
 * The children of `/api/info?id=…`: the posts (t3) and comments (t1) it knows, unknown ids left out
 * (reddit-2026.md: Reddit's API docs for `GET /api/info`, and PRAW's recorded
 * `TestReddit.test_info.json`). A comment here has no link_title: an ASSUMPTION, the inconvenient
 * case, not a recorded answer (the cassettes found hold t3 children only; listings under a
 * subreddit or a user do carry link_title). Built this way, the service must read the post by its
 * link_id for the title rather than trust it is there, which is right whichever way Reddit answers.
 */
export function infoChildren(ids: string[], posts: FakePost[], comments: FakeComment[]): Json[] {
  const found = posts.filter((p) => ids.includes(`t3_${p.id}`)).map((p) => ({ kind: 't3', data: postThing(p) }));
  const untitled = (c: FakeComment) => Object.fromEntries(Object.entries(commentThing(c) as Record<string, unknown>).filter(([key]) => key !== 'link_title'));
  return [...found, ...comments.filter((c) => ids.includes(`t1_${c.id}`)).map((c) => ({ kind: 't1', data: untitled(c) }))];
}
