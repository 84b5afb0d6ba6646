/**
 * Subreddits' newest-first listings, `/r/a+b+c/new` (posts) and `/r/a+b+c/comments` (comments): the
 * request path, the reading of a page into RedditItems, and the call itself. Reddit's search does not
 * cover comments, and these listings are the one way to read everything new in many subreddits at once.
 */
import {
  LIMITS,
  REDDIT_ORIGIN,
  authorName,
  cleanText,
  createdAt,
  redditPage,
  subredditName,
  thingId,
  wholeNumber,
} from './reddit.content.ts';
import { capText } from '../../shared/text.ts';
import { RedditUnavailableError } from './reddit.errors.ts';
import type { RedditHttp } from './reddit.http.ts';
import { isUnavailableStatus, reasonFromSearch, toPost } from './reddit.mapping.ts';
import { MAX_PAGE_SIZE, subredditPath } from './reddit.query.ts';
import type { ListingInput, ListingOutput, RedditItem } from './reddit.types.ts';

type Json = Record<string, unknown>;
type Source = ListingInput['source'];

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Path and query string (relative to the API base URL) of one listing page of 100 items. */
export function listingPath(request: { subreddits: readonly string[]; source: Source; after: string | null }): string {
  const params = new URLSearchParams({ limit: String(MAX_PAGE_SIZE), raw_json: '1' });
  if (request.after) params.set('after', request.after);
  return `${subredditPath(request.subreddits)}/${request.source === 'posts' ? 'new' : 'comments'}?${params.toString()}`;
}

/**
 * One listing page: its items (t3 children for posts, t1 for comments; other kinds are passed over)
 * and Reddit's `after`. A child that cannot be read is left out and counted, never thrown, so one bad
 * item cannot stop the reading of a subreddit.
 */
export function parseItems(body: unknown, source: Source): { items: RedditItem[]; after: string | null; skipped: number } {
  if (!isObject(body) || !isObject(body.data) || !Array.isArray(body.data.children)) {
    throw new RedditUnavailableError('Reddit answered a listing with something other than a listing', undefined, 200);
  }
  const kind = source === 'posts' ? 't3' : 't1';
  const items: RedditItem[] = [];
  let skipped = 0;
  for (const child of body.data.children) {
    if (isObject(child) && child.kind !== kind) continue;
    let item: RedditItem | null = null;
    try {
      const data = isObject(child) && isObject(child.data) ? child.data : null;
      item = data && (kind === 't3' ? postItem(data) : commentItem(data));
    } catch {
      item = null;
    }
    if (item) items.push(item);
    else skipped++;
  }
  const after = typeof body.data.after === 'string' && body.data.after ? body.data.after : null;
  return { items, after, skipped };
}

/** A post by the same rules as a search result (reddit.mapping.ts), or null when it cannot be read. */
function postItem(data: Json): RedditItem | null {
  const post = toPost(data);
  if (typeof post === 'string') return null;
  const { id, subreddit, title, body, author, permalink, created_at, score, nsfw, flair } = post;
  return { type: 'post', id, subreddit, title, body, author, permalink, created_at, score, nsfw, ...(flair === undefined ? {} : { flair }) };
}

/**
 * A comment: its body, the title of the post it is under (link_title) and its own page, made absolute
 * from its permalink or, failing that, rebuilt from the post's id (`/r/x/comments/<post>/comment/<id>/`).
 */
function commentItem(data: Json): RedditItem | null {
  const id36 = thingId(data, 't1_');
  const subreddit = subredditName(data.subreddit);
  const created = createdAt(data.created_utc);
  if (!id36 || !subreddit || !created) return null;
  const post36 = thingId({ name: data.link_id }, 't3_');
  const permalink = redditPage(data.permalink) ?? (post36 && `${REDDIT_ORIGIN}/r/${subreddit}/comments/${post36}/comment/${id36}/`);
  if (!permalink) return null;
  return {
    type: 'comment',
    id: `t1_${id36}`,
    subreddit,
    title: capText(cleanText(text(data.link_title)), LIMITS.title).text,
    body: capText(cleanText(text(data.body)), LIMITS.body).text,
    author: authorName(data.author),
    permalink,
    created_at: created,
    score: wholeNumber(data.score),
    nsfw: data.over_18 === true,
  };
}

/**
 * Reads one page. A path Reddit refuses (a single unavailable name: redirect, 403, 404) is answered
 * with the reason, as a search is; any other status but 200 is Reddit failing (the HTTP layer has
 * already retried 429 and 5xx and waited on X-Ratelimit-*).
 */
export async function readListing(http: RedditHttp, input: ListingInput): Promise<ListingOutput> {
  if (input.subreddits.length === 0) return { ok: true, items: [], after: null, skipped: 0 };
  const response = await http.get(listingPath(input), input.consumer);
  if (response.status === 200) return { ok: true, ...parseItems(response.body, input.source) };
  if (isUnavailableStatus(response.status)) {
    return { ok: false, status: response.status, reason: reasonFromSearch(response.status, response.body) };
  }
  throw new RedditUnavailableError(`Reddit answered a listing with unexpected HTTP ${response.status}`, undefined, response.status);
}

/** The most fullnames one `/api/info?id=` answers for (Reddit's API docs for GET /api/info; clients send 100). */
export const MAX_INFO_IDS = 100;

/**
 * Up to 100 posts and comments by fullname in one `/api/info?id=` (the site-wide stream's read): those
 * Reddit can show, in no promised order; one it cannot show (deleted, removed, private, not visible
 * yet) is simply absent. A comment read this way has no post title (`title` is ''). Any status but 200
 * is Reddit failing (the HTTP layer has already retried 429 and 5xx).
 */
export async function readInfo(http: RedditHttp, fullnames: readonly string[], consumer?: string): Promise<{ items: RedditItem[]; skipped: number }> {
  if (fullnames.length > MAX_INFO_IDS) throw new RangeError(`/api/info takes at most ${MAX_INFO_IDS} fullnames, got ${fullnames.length}`);
  if (fullnames.length === 0) return { items: [], skipped: 0 };
  const response = await http.get(`/api/info?id=${fullnames.join(',')}&raw_json=1`, consumer);
  if (response.status !== 200) {
    throw new RedditUnavailableError(`Reddit answered a look-up of ${fullnames.length} ids with HTTP ${response.status}`, undefined, response.status);
  }
  const posts = parseItems(response.body, 'posts');
  const comments = parseItems(response.body, 'comments');
  return { items: [...posts.items, ...comments.items], skipped: posts.skipped + comments.skipped };
}
