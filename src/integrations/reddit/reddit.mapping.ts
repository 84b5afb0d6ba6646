/** Turns Reddit's JSON (search listings, subreddit about pages and infos, error bodies) into the client's types. */
import {
  LIMITS,
  authorName,
  cleanText,
  createdAt,
  linkUrl,
  permalinkOf,
  postId,
  subredditName,
  wholeNumber,
} from './reddit.content.ts';
import { capText } from '../../shared/text.ts';
import { RedditUnavailableError } from './reddit.errors.ts';
import type { RedditPost, SkippedItem, UnavailableReason } from './reddit.types.ts';

export interface ListingPage {
  after: string | null;
  posts: RedditPost[];
  /** Children that should be posts but cannot be read: left out, so one bad item never fails a search. */
  skipped: SkippedItem[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A search listing page; children of other kinds (not t3) are not posts and are passed over. */
export function parseListing(body: unknown): ListingPage {
  if (!isObject(body) || !isObject(body.data) || !Array.isArray(body.data.children)) {
    throw new RedditUnavailableError('Reddit answered a search with something other than a listing', undefined, 200);
  }
  const posts: RedditPost[] = [];
  const skipped: SkippedItem[] = [];
  for (const child of body.data.children) {
    if (isObject(child) && child.kind !== 't3') continue;
    const data = isObject(child) ? child.data : undefined;
    const id = isObject(data) ? postId(data) : null;
    let read: RedditPost | string;
    try {
      read = isObject(data) ? toPost(data) : 'the listing child or its data is not an object';
    } catch (error) {
      read = `reading it threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (typeof read === 'string') skipped.push({ id: id && `t3_${id}`, problem: read });
    else posts.push(read);
  }
  const after = typeof body.data.after === 'string' && body.data.after ? body.data.after : null;
  return { after, posts, skipped };
}

/** The post, held to reddit.content.ts's rules, or why it cannot be read. */
export function toPost(data: Json): RedditPost | string {
  const id36 = postId(data);
  if (!id36) return 'neither name nor id is a t3 id';
  const subreddit = subredditName(data.subreddit);
  if (!subreddit) return 'subreddit is not a subreddit name';
  const created = createdAt(data.created_utc);
  if (!created) return 'created_utc is not a time in seconds since 1970';
  const title = capText(cleanText(text(data.title)), LIMITS.title);
  const body = capText(cleanText(text(data.selftext)), LIMITS.body);
  const permalink = permalinkOf(data.permalink, subreddit, id36);
  const flair = cleanText(text(data.link_flair_text)).trim();
  return {
    id: `t3_${id36}`,
    subreddit,
    title: title.text,
    body: body.text,
    author: authorName(data.author),
    url: linkUrl(data.url) ?? permalink,
    permalink,
    created_at: created,
    score: wholeNumber(data.score),
    num_comments: wholeNumber(data.num_comments),
    nsfw: data.over_18 === true,
    truncated: title.cut || body.cut,
    ...(flair ? { flair: capText(flair, LIMITS.title).text } : {}),
  };
}

const reasonOf = (body: unknown): string => (isObject(body) ? text(body.reason).toLowerCase() : '');

/** Whether a search answer means one of the subreddits in the path is unavailable. */
export const isUnavailableStatus = (status: number): boolean =>
  (status >= 300 && status < 400) || status === 403 || status === 404;

/**
 * Why a single-subreddit search failed, judged from the search answer alone. A 403 that names no reason
 * (a bare `{"message":"Forbidden"}` is on record for a quarantined subreddit) is `forbidden`: guessing
 * `private` would tell the caller something Reddit did not say.
 */
export function reasonFromSearch(status: number, body: unknown): UnavailableReason {
  const reason = reasonOf(body);
  // `gated`: a subreddit behind Reddit's content gate (403 {"reason": "gated"}), which a logged-out
  // app cannot pass; not quarantined, which is its own reason.
  if (status === 403) return reason === 'quarantined' || reason === 'private' || reason === 'gated' ? reason : 'forbidden';
  if (status === 404 && reason === 'banned') return 'banned';
  return 'not_found';
}

/** Why a subreddit is unavailable according to its about page, or null when it looks available. */
export function reasonFromAbout(status: number, body: unknown): UnavailableReason | null {
  if (status >= 300 && status < 400) return 'not_found';
  if (status === 403 || status === 404) return reasonFromSearch(status, body);
  // A name that does not exist may get an empty Listing rather than a redirect (Pyprohly/reddit-api-doc-notes,
  // docs/api-reference/subreddit.rst, GET /r/{subreddit}/about): a t5's checks would read it as available.
  if (status === 200 && isObject(body) && body.kind === 'Listing') return 'not_found';
  if (status === 200 && isObject(body) && isObject(body.data)) return reasonFromThing(body.data) ?? null;
  return null;
}

/** What a t5's data says: a reason, null when it is readable, undefined when it is too bare to tell. */
function reasonFromThing(data: Json): UnavailableReason | null | undefined {
  if (data.quarantine === true) return 'quarantined';
  if (data.subreddit_type === 'private') return 'private';
  // Banned (and some refused) subreddits come back "null right through": no counts, no over18 flag.
  if (typeof data.over18 !== 'boolean' || typeof data.subscribers !== 'number') return undefined;
  return null;
}

export interface SubredditInfo {
  /** Reddit's spelling of the name. */
  displayName: string;
  /** null: readable; undefined: the t5 is too bare to tell, its about page must be asked. */
  reason: UnavailableReason | null | undefined;
  nsfw: boolean;
}

/**
 * An `/api/info?sr_name=` listing by lower-case name. Reddit leaves out names that do not exist, and
 * banned ones too: a requested name missing here is asked of its about page (reddit.subreddits.ts).
 */
export function parseSubredditInfos(body: unknown): Map<string, SubredditInfo> {
  if (!isObject(body) || !isObject(body.data) || !Array.isArray(body.data.children)) {
    throw new RedditUnavailableError('Reddit answered a subreddit look-up with something other than a listing', undefined, 200);
  }
  const infos = new Map<string, SubredditInfo>();
  for (const child of body.data.children) {
    if (!isObject(child) || child.kind !== 't5' || !isObject(child.data)) continue;
    const displayName = text(child.data.display_name);
    if (!displayName) continue;
    infos.set(displayName.toLowerCase(), { displayName, reason: reasonFromThing(child.data), nsfw: child.data.over18 === true });
  }
  return infos;
}
