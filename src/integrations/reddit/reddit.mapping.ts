/** Turns Reddit's JSON (search listings, subreddit about pages, error bodies) into the client's types. */
import type { RedditPost, UnavailableReason } from './reddit.client.ts';
import { RedditUnavailableError } from './reddit.http.ts';

const REDDIT_ORIGIN = 'https://www.reddit.com';

export interface ListingPage {
  after: string | null;
  posts: RedditPost[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** A search listing page; children that are not posts (kind t3) are skipped. */
export function parseListing(body: unknown): ListingPage {
  if (!isObject(body) || !isObject(body.data) || !Array.isArray(body.data.children)) {
    throw new RedditUnavailableError('Reddit answered a search with something other than a listing', undefined, 200);
  }
  const posts: RedditPost[] = [];
  for (const child of body.data.children) {
    if (!isObject(child) || child.kind !== 't3' || !isObject(child.data)) continue;
    const post = toPost(child.data);
    if (post) posts.push(post);
  }
  const after = typeof body.data.after === 'string' && body.data.after ? body.data.after : null;
  return { after, posts };
}

function toPost(data: Json): RedditPost | null {
  const id = text(data.name) || (text(data.id) ? `t3_${text(data.id)}` : '');
  if (!id) return null;
  const relative = text(data.permalink);
  const permalink = /^https?:\/\//.test(relative) ? relative : relative ? `${REDDIT_ORIGIN}${relative}` : '';
  const created = count(data.created_utc);
  return {
    id,
    subreddit: text(data.subreddit),
    title: text(data.title),
    body: text(data.selftext),
    author: text(data.author),
    url: text(data.url) || permalink,
    permalink,
    created_at: new Date(created * 1000).toISOString(),
    score: count(data.score),
    num_comments: count(data.num_comments),
    nsfw: data.over_18 === true,
  };
}

const reasonOf = (body: unknown): string => (isObject(body) ? text(body.reason).toLowerCase() : '');

/** Whether a search answer means one of the subreddits in the path is unavailable. */
export const isUnavailableStatus = (status: number): boolean =>
  (status >= 300 && status < 400) || status === 403 || status === 404;

/** Why a single-subreddit search failed, judged from the search answer alone. */
export function reasonFromSearch(status: number, body: unknown): UnavailableReason {
  const reason = reasonOf(body);
  if (status === 403) return reason === 'quarantined' ? 'quarantined' : 'private';
  if (status === 404 && reason === 'banned') return 'banned';
  return 'not_found';
}

/** Why a subreddit is unavailable according to its about page, or null when it looks available. */
export function reasonFromAbout(status: number, body: unknown): UnavailableReason | null {
  if (status >= 300 && status < 400) return 'not_found';
  if (status === 403 || status === 404) return reasonFromSearch(status, body);
  if (status === 200 && isObject(body) && isObject(body.data)) {
    return body.data.subreddit_type === 'private' ? 'private' : null;
  }
  return null;
}
