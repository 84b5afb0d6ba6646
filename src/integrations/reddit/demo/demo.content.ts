/**
 * The demo source's content at a given time, in Reddit's wire format: the fixed posts and comments of
 * demo.data.ts dated before it, and the trickle's samples. Pure: the time comes in as an argument.
 *
 * The trickle has one slot every `trickleSeconds` since 1970, sample `slot mod length` listed at the
 * slot's start, with the slot's number as its id (shared/demo.ts): every process, restart or instance
 * lists the same item at the same time, so nothing is delivered twice or missed for being another
 * process's. Only the newest TRICKLE_WINDOW slots are listed, as a busy listing scrolls.
 */
import { demoId } from '../../../shared/demo.ts';
import { DEMO_COMMENTS, DEMO_POSTS, DEMO_TRICKLE, type DemoPost } from './demo.data.ts';

type Json = Record<string, unknown>;

/** A post or comment as the demo lists it: its Reddit `data`, and what ordering and filtering need. */
export interface DemoThing {
  kind: 't3' | 't1';
  /** Lower-case subreddit. */
  subreddit: string;
  created: number;
  data: Json;
}

/**
 * Trickled samples kept listed, newest first: each sample once, so a search does not show it repeated.
 * At the default 30 s that is 6 minutes, several reads of a poller at its default 60 s.
 */
export const TRICKLE_WINDOW = DEMO_TRICKLE.length;

/** The subreddits with content, by lower-case name, as Reddit spells them. */
export const DEMO_SUBREDDITS = new Map(DEMO_POSTS.map((post) => [post.subreddit.toLowerCase(), post.subreddit]));

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const postsByN = new Map(DEMO_POSTS.map((post) => [post.n, post]));

/** The title part of a permalink as Reddit shortens it (test/support/fake-reddit-listings.ts slug). */
const slug = (title: string) => [...title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '')].slice(0, 50).join('') || 'post';

function postThing(post: Omit<DemoPost, 'created'>, id: string, created: number): DemoThing {
  const permalink = `/r/${post.subreddit}/comments/${id}/${slug(post.title)}/`;
  return {
    kind: 't3',
    subreddit: post.subreddit.toLowerCase(),
    created,
    data: {
      name: `t3_${id}`,
      id,
      subreddit: post.subreddit,
      subreddit_name_prefixed: `r/${post.subreddit}`,
      title: post.title,
      selftext: post.selftext,
      author: post.author,
      url: `https://www.reddit.com${permalink}`,
      is_self: true,
      permalink,
      created_utc: created,
      score: post.score,
      num_comments: post.num_comments,
      over_18: false,
      link_flair_text: post.flair ?? null,
    },
  };
}

function commentThing(comment: { post: number; body: string; author: string; score: number }, id: string, created: number): DemoThing {
  const post = postsByN.get(comment.post)!;
  const postId = demoId(post.n);
  const postPath = `/r/${post.subreddit}/comments/${postId}/${slug(post.title)}/`;
  return {
    kind: 't1',
    subreddit: post.subreddit.toLowerCase(),
    created,
    data: {
      name: `t1_${id}`,
      id,
      body: comment.body,
      author: comment.author,
      subreddit: post.subreddit,
      subreddit_name_prefixed: `r/${post.subreddit}`,
      link_id: `t3_${postId}`,
      parent_id: `t3_${postId}`,
      link_title: post.title,
      link_permalink: `https://www.reddit.com${postPath}`,
      permalink: `${postPath}${id}/`,
      created_utc: created,
      over_18: false,
      score: comment.score,
    },
  };
}

const FIXED_POSTS = DEMO_POSTS.map((post) => postThing(post, demoId(post.n), seconds(post.created)));
const FIXED_COMMENTS = DEMO_COMMENTS.map((comment) => commentThing(comment, demoId(comment.n), seconds(comment.created)));

/** The demo's posts (t3) or comments (t1) listed at `now` (seconds), newest first. */
export function demoThings(kind: 't3' | 't1', now: number, trickleSeconds: number): DemoThing[] {
  const trickled: DemoThing[] = [];
  const newest = Math.floor(now / trickleSeconds);
  for (let slot = newest; slot > newest - TRICKLE_WINDOW && slot >= 0; slot--) {
    const sample = DEMO_TRICKLE[slot % DEMO_TRICKLE.length]!;
    const created = slot * trickleSeconds;
    if (kind === 't3' && sample.kind === 'post') trickled.push(postThing({ ...sample, n: slot, score: 1, num_comments: 0 }, demoId(slot), created));
    if (kind === 't1' && sample.kind === 'comment') trickled.push(commentThing({ ...sample, score: 1 }, demoId(slot), created));
  }
  const fixed = (kind === 't3' ? FIXED_POSTS : FIXED_COMMENTS).filter((thing) => thing.created <= now).reverse();
  return [...trickled, ...fixed];
}

/** One listing page of `things` (newest first) as Reddit pages them: `limit` up to 100, `after` a fullname. */
export function listingPage(things: DemoThing[], params: URLSearchParams): Json {
  const limit = Math.min(100, Math.max(1, Number(params.get('limit')) || 25));
  const after = params.get('after');
  const start = after ? things.findIndex((thing) => thing.data.name === after) + 1 : 0;
  // A cursor no longer listed (scrolled out of the window) ends the listing, as Reddit's does.
  const page = after && start === 0 ? [] : things.slice(start, start + limit);
  const more = page.length > 0 && start + page.length < things.length;
  return {
    kind: 'Listing',
    data: {
      after: more ? page.at(-1)!.data.name : null,
      dist: page.length,
      modhash: '',
      geo_filter: '',
      children: page.map((thing) => ({ kind: thing.kind, data: thing.data })),
      before: null,
    },
  };
}

/**
 * Reddit's search over `posts` of `names` (lower-case): `q` is " OR "-separated terms, a quoted term a
 * phrase, an unquoted one all of its words, in title or self text, case-insensitive (as the client
 * writes it: reddit.query.ts). `t` is not applied: the fixed posts are older than a week and are
 * still what a search of the demo should find. sort=new by time, top and relevance by score.
 */
export function searchPosts(posts: DemoThing[], names: Set<string>, params: URLSearchParams): DemoThing[] {
  const terms = (params.get('q') ?? '')
    .split(/\s+OR\s+/)
    .map((term) => term.trim().toLowerCase())
    .filter(Boolean)
    .map((term) => {
      const phrase = /^"(.*)"$/.exec(term)?.[1];
      return (text: string) => (phrase !== undefined ? phrase !== '' && text.includes(phrase) : term.split(/\s+/).every((word) => text.includes(word)));
    });
  const found = posts.filter((post) => names.has(post.subreddit) && terms.some((term) => term(`${post.data.title}\n${post.data.selftext}`.toLowerCase())));
  if (params.get('sort') === 'new') return found;
  return [...found].sort((a, b) => Number(b.data.score) - Number(a.data.score) || b.created - a.created);
}

/** A subreddit's about page (t5): every name is a public subreddit on the demo; those without content are empty. */
export function aboutThing(name: string): Json {
  const display = DEMO_SUBREDDITS.get(name.toLowerCase()) ?? name;
  return {
    kind: 't5',
    data: {
      display_name: display,
      display_name_prefixed: `r/${display}`,
      name: `t5_${demoId(0)}`,
      subreddit_type: 'public',
      over18: false,
      quarantine: false,
      subscribers: DEMO_SUBREDDITS.has(name.toLowerCase()) ? 1000 : 0,
      public_traffic: false,
    },
  };
}
