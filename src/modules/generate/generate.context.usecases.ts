/**
 * What a reply answers, for the model: the post or comment named by `reply_to` (a t3_ or t1_
 * fullname, or a monitor match's id), with its thread and subreddit. What the account already holds is
 * used as it was read (a monitor's match, then a scrape's result), so a reply to something found costs
 * no Reddit request; anything else is read from Reddit's `/api/info`, with the same honest errors as
 * before (not found, Reddit down, the app blocked).
 */
import type { Database } from '../../shared/db/database.ts';
import type { RedditClient } from '../../integrations/reddit/reddit.client.ts';
import { RedditBlockedError, RedditUnavailableError } from '../../integrations/reddit/reddit.errors.ts';
import type { RedditItem } from '../../integrations/reddit/reddit.types.ts';
import { findScrapedItem } from '../scrape/scrape.usecases.ts';
import { generateErrors } from './generate.errors.ts';

/** A post or comment the account holds, as a monitor match or scrape result keeps it ("r/name" subreddit). */
export interface StoredItem {
  type: 'post' | 'comment';
  reddit_id: string;
  subreddit: string;
  /** A comment's: the title of its post. */
  title: string;
  body: string;
  author: string;
  permalink: string;
  /** The match it is, when it came from a monitor. */
  match_id: string | null;
}

/** The account's monitor match by its id (`mat_…`) or, newest first, by the fullname it matched. */
export type FindMatchedItem = (accountId: string, ref: string) => Promise<StoredItem | null>;

export interface ReplyContext {
  /** The t3_ or t1_ the reply goes under. */
  replyTo: string;
  /** The t3_ post of the thread. */
  thread: string;
  /** "r/name" */
  subreddit: string;
  matchId: string | null;
  /** The thread's post; its body is null when only a comment under it is held (its title is kept with the comment). */
  post: { title: string; body: string | null };
  /** The comment replied to, when the reply answers a comment. */
  comment: { body: string; author: string } | null;
}

/** The t3_ post a Reddit page belongs to: `/r/x/comments/<post>/…`. */
export const threadOf = (permalink: string): string | null => {
  const id = /\/comments\/([a-z0-9]+)\//i.exec(permalink)?.[1];
  return id ? `t3_${id.toLowerCase()}` : null;
};

function contextOf(item: StoredItem, post: { title: string; body: string | null } | null = null): ReplyContext {
  const isComment = item.type === 'comment';
  return {
    replyTo: item.reddit_id,
    thread: isComment ? (threadOf(item.permalink) ?? item.reddit_id) : item.reddit_id,
    subreddit: item.subreddit,
    matchId: item.match_id,
    post: post ?? (isComment ? { title: item.title, body: null } : { title: item.title, body: item.body }),
    comment: isComment ? { body: item.body, author: item.author } : null,
  };
}

const stored = (item: RedditItem): StoredItem => ({ ...item, reddit_id: item.id, subreddit: `r/${item.subreddit}`, match_id: null });

export function createReplyContexts(deps: { db: Database; reddit: RedditClient | null; findMatched: FindMatchedItem }) {
  const { db, reddit, findMatched } = deps;

  /** What the account holds of a fullname or match id, without asking Reddit. */
  async function held(accountId: string, ref: string): Promise<StoredItem | null> {
    const matched = await findMatched(accountId, ref);
    if (matched || ref.startsWith('mat_')) return matched;
    const scraped = await findScrapedItem(db, accountId, ref);
    return scraped ? { ...scraped, type: scraped.type ?? 'post', reddit_id: scraped.id, match_id: null } : null;
  }

  async function fromReddit(accountId: string, fullname: string): Promise<ReplyContext> {
    const missing = (why: string) => (fullname.startsWith('t1_') ? generateErrors.commentNotFound(fullname, why) : generateErrors.postNotFound(fullname, why));
    if (!reddit) throw missing('not in your matches or scrapes, and Reddit is not configured');
    try {
      const item = await reddit.getItem(fullname, accountId);
      if (!item) throw missing('Reddit does not know it');
      if (item.type === 'post') return contextOf(stored(item));
      // Reddit's look-up of a comment leaves its post's title out: the post is read for it.
      const thread = threadOf(item.permalink);
      const post = thread ? await reddit.getItem(thread, accountId) : null;
      return contextOf(stored(item), post ? { title: post.title, body: post.body } : { title: item.title, body: null });
    } catch (error) {
      if (error instanceof RedditBlockedError) throw generateErrors.redditBlocked(error.message);
      if (error instanceof RedditUnavailableError) throw generateErrors.redditUnavailable(error.message);
      throw error;
    }
  }

  return {
    contextOf,

    /** The context of a reply to `ref`; throws a 404 for a match the account does not have or a thing Reddit does not know. */
    async resolve(accountId: string, ref: string): Promise<ReplyContext> {
      const item = await held(accountId, ref);
      if (item) return contextOf(item);
      if (ref.startsWith('mat_')) throw generateErrors.matchNotFound(ref);
      return fromReddit(accountId, ref);
    },

    /** Where a fullname is, from what the account holds: its subreddit and thread (publish's rails read it); null when not held. */
    async locate(accountId: string, fullname: string): Promise<{ subreddit: string; thread: string } | null> {
      const item = await held(accountId, fullname);
      return item && { subreddit: item.subreddit, thread: contextOf(item).thread };
    },
  };
}
