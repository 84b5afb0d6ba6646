/**
 * The fake Reddit's firehose: every post and comment created site-wide, for the stream reader
 * (src/modules/monitors/stream/). Switched on with `fake.firehose = createFirehose({ … })`; off, the
 * fake answers as before.
 *
 * What it follows, and where from:
 * - Fullnames are sequential base-36 numbers per kind: `t3_` posts and `t1_` comments each count up
 *   by one per item created anywhere (praw PR #1328, "incrementing ids"; ../shared/reference/reddit-2026.md,
 *   "Reading all of Reddit"). The first ids here are those of PRAW's recorded `/api/info` answer
 *   (praw-dev/praw `tests/integration/cassettes/TestReddit.test_info.json`: t3_5dec00…, t1_d7ltv00…).
 * - `GET /api/info?id=a,b,c` answers a Listing of the ones it can show, at most 100 (the first 100
 *   asked: an ASSUMPTION, Reddit's API docs for GET /api/info say only "a comma-separated list of
 *   thing fullnames"; clients send 100), in no promised order (shuffled here, so nothing relies on
 *   it), and the ones it cannot show are simply absent: no error, no placeholder (Reddit API docs;
 *   the same cassette asks 100 and gets fewer).
 * - A few per cent of ids are never returned (removed by AutoModerator or admins, deleted, in a
 *   private community: reddit-2026.md); some are returned only seconds after their creation (`late`),
 *   as a brand-new item is not visible everywhere at once.
 * - The rate is bursty, not constant: F5Bot read about 500,000 posts and 4,000,000 comments a day,
 *   about 50 a second on average (intoli.com/blog/f5bot), with busy and quiet stretches; here a burst
 *   of `burst.factor` × the mean for `burst.seconds` out of every `burst.period` seconds, the rest
 *   slower so the mean stays `perSecond`, each second's count drawn around that.
 * - The heads: `/r/all/new` and `/r/all/comments` (limit ≤ 100) list the newest visible posts and
 *   comments, newest first: where a reader learns the newest id of each kind.
 * - The same items are in their subreddits' listings (`/r/x/new`, `/r/x/comments`, through `listed`),
 *   as on Reddit, where one post is both in `/r/all/new` and its own subreddit's: so a subreddit monitor
 *   can be read by the stream and by the poller alike (issue 45, the poller's fallback). A listing shows
 *   what `/api/info` shows (`visibleMs`; deleted ones never), with its post's title on a comment.
 * Time is the test's: items exist once `clock()` has passed their creation; nothing runs on timers.
 */
import type { FakePost } from './fake-reddit.ts';
import { postThing } from './fake-reddit-listings.ts';
import { commentThing, type FakeComment } from './fake-reddit-streams.ts';

type Json = Record<string, unknown>;
export type FirehoseKind = 't3' | 't1';

export interface FirehoseItem {
  kind: FirehoseKind;
  /** Base-36, without the kind. */
  id: string;
  /** ms */
  createdMs: number;
  /** When /api/info starts to return it (ms); null: never (deleted, removed, private). */
  visibleMs: number | null;
  thing: FakePost | FakeComment;
}

export interface FirehoseOptions {
  clock: () => number;
  /** Items (posts and comments together) a second on average; read every second, so a test may change it (0 stops the firehose). */
  perSecond: number;
  /** Of them, comments (default 0.8: F5Bot's 4 million comments to 0.5 million posts is about 0.89). */
  commentShare?: number;
  burst?: { period: number; seconds: number; factor: number };
  /** Share of ids never returned (default 0.03). */
  unavailable?: number;
  /** Share of ids returned only after 1..`maxSeconds` s (default 5% within 20 s). */
  late?: { share: number; maxSeconds: number };
  subreddits?: string[];
  /** The words texts are made of; a test finds its keyword among them. */
  words?: string[];
  seed?: number;
  /** When the first second starts (ms; default: clock() at creation). */
  startMs?: number;
}

export const FIRST_POST_ID = Number.parseInt('5dec00', 36);
export const FIRST_COMMENT_ID = Number.parseInt('d7ltv00', 36);
/** The most fullnames /api/info answers for. */
export const INFO_MAX_IDS = 100;

const WORDS = ['hello', 'kysely', 'postgres', 'sqlite', 'churn', 'pricing', 'launch', 'bug', 'question', 'today', 'reddit', 'typescript'];

/** A small seeded generator (mulberry32): the same seed gives the same firehose. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createFirehose(options: FirehoseOptions) {
  const random = seeded(options.seed ?? 45);
  const answerOrder = seeded((options.seed ?? 45) + 1);
  const commentShare = options.commentShare ?? 0.8;
  const burst = options.burst ?? { period: 10, seconds: 2, factor: 3 };
  const quiet = Math.max(0, (burst.period - burst.seconds * burst.factor) / (burst.period - burst.seconds));
  const unavailable = options.unavailable ?? 0.03;
  const late = options.late ?? { share: 0.05, maxSeconds: 20 };
  const subreddits = options.subreddits ?? ['askreddit', 'typescript', 'node', 'saas', 'startups'];
  const words = options.words ?? WORDS;
  const startMs = options.startMs ?? options.clock();
  const next = { t3: FIRST_POST_ID, t1: FIRST_COMMENT_ID };
  const items: FirehoseItem[] = [];
  const byName = new Map<string, FirehoseItem>();
  const recentPosts: FakePost[] = [];
  let second = 0; // the next whole second to create

  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const text = () => Array.from({ length: 3 + Math.floor(random() * 4) }, () => pick(words)).join(' ');

  function create(kind: FirehoseKind, createdMs: number) {
    const id = (next[kind]++).toString(36);
    const roll = random();
    const visibleMs = roll < unavailable ? null : roll < unavailable + late.share ? createdMs + 1000 * (1 + Math.floor(random() * late.maxSeconds)) : createdMs;
    const subreddit = pick(subreddits);
    const created_utc = Math.floor(createdMs / 1000);
    const post = recentPosts.length > 0 ? pick(recentPosts) : null;
    const thing: FakePost | FakeComment =
      kind === 't3'
        ? { id, subreddit, title: text(), selftext: text(), created_utc }
        : { id, subreddit: post?.subreddit ?? subreddit, link_id: post?.id ?? '5dbzzz', link_title: post?.title ?? 'a post', body: text(), created_utc };
    const item = { kind, id, createdMs, visibleMs, thing };
    if (kind === 't3' && recentPosts.push(thing as FakePost) > 20) recentPosts.shift();
    items.push(item);
    byName.set(`${kind}_${id}`, item);
  }

  /** Creates every item of the whole seconds the clock has passed. */
  function sync() {
    const now = options.clock();
    while (startMs + (second + 1) * 1000 <= now) {
      const mean = options.perSecond * (second % burst.period < burst.seconds ? burst.factor : quiet);
      const count = Math.round(mean * (0.5 + random()));
      for (let i = 0; i < count; i++) create(random() < commentShare ? 't1' : 't3', startMs + second * 1000 + Math.floor((1000 * i) / count));
      second++;
    }
    return now;
  }

  const visible = (item: FirehoseItem, now: number) => item.visibleMs !== null && item.visibleMs <= now;
  const toThing = (item: FirehoseItem, untitled: boolean): Json => {
    if (item.kind === 't3') return { kind: 't3', data: postThing(item.thing as FakePost) };
    const data = commentThing(item.thing as FakeComment);
    if (untitled) delete data.link_title; // as fake-reddit-streams.ts infoChildren: /api/info's comments carry no title
    return { kind: 't1', data };
  };
  const listing = (children: Json[]) => ({ kind: 'Listing', data: { after: null, dist: children.length, modhash: '', children, before: null } });

  return {
    /** Every item created so far (deleted and late ones included), oldest first. */
    items(): FirehoseItem[] {
      sync();
      return items;
    },
    /** The children `/api/info?id=` answers for these fullnames (at most the first 100 asked), shuffled. */
    info(ids: string[]): Json[] {
      const now = sync();
      const found = ids.slice(0, INFO_MAX_IDS).flatMap((name) => {
        const item = byName.get(name);
        return item && visible(item, now) ? [toThing(item, true)] : [];
      });
      for (let i = found.length - 1; i > 0; i--) {
        const j = Math.floor(answerOrder() * (i + 1));
        [found[i], found[j]] = [found[j]!, found[i]!];
      }
      return found;
    },
    /** The visible posts (t3) or comments (t1), oldest first, as fake-reddit.ts's own: what subreddit listings add to its `posts` and `comments`. */
    listed(kind: FirehoseKind): (FakePost | FakeComment)[] {
      const now = sync();
      return items.filter((item) => item.kind === kind && visible(item, now)).map((item) => item.thing);
    },
    /** `/r/all/new` and `/r/all/comments`: the newest visible items of the kind, newest first; null for any other path. */
    head(path: string, params: URLSearchParams): Json | null {
      const match = /^\/r\/all\/(new|comments)(?:\.json)?\/?$/.exec(path);
      if (!match) return null;
      const now = sync();
      const kind: FirehoseKind = match[1] === 'new' ? 't3' : 't1';
      const limit = Math.min(100, Math.max(1, Number(params.get('limit')) || 25));
      const children: Json[] = [];
      for (let i = items.length - 1; i >= 0 && children.length < limit; i--) {
        const item = items[i]!;
        if (item.kind === kind && visible(item, now)) children.push(toThing(item, false));
      }
      return listing(children);
    },
  };
}

export type FakeFirehose = ReturnType<typeof createFirehose>;
