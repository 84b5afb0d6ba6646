/**
 * The shapes the Reddit clients hand out and pass between their parts (HTTP layer, rate limits,
 * mapping, client), in a file of their own so none of those parts has to import another in a loop.
 */

/** One HTTP exchange (reddit.http.ts sendOnce): Reddit's answer, or why there was none. */
export type Attempt =
  | { ok: true; status: number; headers: Headers; text: string }
  | { ok: false; timedOut: boolean; reason: string };

/** An exchange Reddit answered, whatever the status. */
export type Answer = Extract<Attempt, { ok: true }>;

/**
 * A post or a comment as the service holds it: what a listing (`/r/a+b/new`, `/r/a+b/comments`) reads,
 * and the fields every other shape of a Reddit thing (a search's post, a scrape's result, a monitor's
 * match) takes from it rather than declaring again.
 */
export interface RedditItem {
  type: 'post' | 'comment';
  /** Fullname: "t3_…" for a post (the listing's `name`), "t1_…" for a comment. */
  id: string;
  /** Name without "r/", as Reddit spells it. */
  subreddit: string;
  /** The post's title; for a comment, the title of the post it was written under (link_title). */
  title: string;
  /** A post's selftext ('' for a link post), a comment's body. */
  body: string;
  author: string;
  /** Absolute https URL of the post or of the comment itself: "https://www.reddit.com" + data.permalink. */
  permalink: string;
  /** ISO 8601 from created_utc. */
  created_at: string;
  /** Reddit's score when the item was read (a one-off scrape sorts by it). */
  score: number;
  /** over_18 (a comment carries its post's flag). */
  nsfw: boolean;
  /** A post's link flair text (link_flair_text), for `flair:` in queries; absent for comments and posts without one. */
  flair?: string;
}

/** A post as a search or a look-up by id reads it (no `type`: those read posts only), with what only a post has. */
export interface RedditPost extends Omit<RedditItem, 'type'> {
  url: string;
  num_comments: number;
  /** The title or body was longer than Reddit's limit (reddit.content.ts LIMITS) and was cut. */
  truncated: boolean;
}

/** A listing child that should have been a post but could not be read; `problem` names the field. */
export interface SkippedItem {
  /** "t3_…" when it had a readable id. */
  id: string | null;
  problem: string;
}

/** `forbidden`: Reddit refused it without naming a reason. */
export type UnavailableReason = 'private' | 'banned' | 'not_found' | 'quarantined' | 'gated' | 'forbidden';

export interface SubredditDescription {
  /** As asked (without "r/"). */
  name: string;
  /** Reddit's spelling; the asked name when Reddit does not know it. */
  displayName: string;
  state: 'ok' | UnavailableReason;
  /** Marked over 18 (false when unknown). */
  nsfw: boolean;
}

/** How `describeSubreddits` may spend requests and what it is told of earlier answers. */
export interface DescribeOptions {
  /**
   * At most this many requests, `/api/info` and about pages alike (default: as many as the names
   * need). Names not settled within them are left out of the answer; the caller asks again later.
   */
  maxRequests?: number;
  /**
   * The state a name was last recorded with. When `/api/info` answers for it as that state does (left
   * out: `banned` or `not_found`; a bare record: `banned` or `forbidden`), the state stands and the
   * about page is not asked again: only a change of answer costs a request per name.
   */
  previous?: (name: string) => SubredditDescription['state'] | undefined;
  /** Hears each answer's descriptions as soon as they are read, so a later failure loses none of them. */
  onDescribed?: (described: SubredditDescription[]) => Promise<void>;
}

export interface SearchInput {
  /** Names WITHOUT "r/", already de-duplicated. */
  subreddits: string[];
  /** Already trimmed and de-duplicated. */
  keywords: string[];
  sort: 'new' | 'relevance' | 'top';
  time: 'hour' | 'day' | 'week' | 'month' | 'year' | 'all';
  /** Max posts wanted overall (1..500). */
  limit: number;
  includeNsfw: boolean;
  /** The account the search runs for, so the shared Reddit budget is shared fairly; default the system. */
  accountId?: string;
}

export interface SearchOutput {
  posts: RedditPost[];
  unavailable: { subreddit: string; reason: UnavailableReason }[];
  /** Posts Reddit sent that could not be read and were left out (absent: none). */
  skipped?: SkippedItem[];
}

export interface ListingInput {
  /** Names WITHOUT "r/"; all in one request (the caller keeps the path short enough). */
  subreddits: string[];
  source: 'posts' | 'comments';
  /** Fullname to read older than (Reddit's `after`); null: the newest page. */
  after: string | null;
  /** Who the request is for in the shared budget (default the system). */
  consumer?: string;
}

export type ListingOutput =
  | {
      ok: true;
      /** Newest first, as Reddit lists them; unreadable children are left out and counted. */
      items: RedditItem[];
      /** Reddit's `after` for the next (older) page; null at the end of the listing. */
      after: string | null;
      skipped: number;
    }
  /** The path was refused (one-name path: 403/404/redirect): why, as for a search. */
  | { ok: false; status: number; reason: UnavailableReason };
