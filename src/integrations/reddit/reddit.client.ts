/**
 * The Reddit API client behind `POST /api/v1/scrape`: searches a set of subreddits for keywords with
 * app-only OAuth, pages through results, and reports subreddits it could not search instead of failing.
 * It neither filters nor sorts posts (the caller does) and never logs.
 */
import { RedditUnavailableError } from './reddit.errors.ts';
import { realSleep } from '../../shared/sleep.ts';
import { createRedditHttp, type RedditHttp, type RedditHttpOptions } from './reddit.http.ts';
import { parseItems, readInfo, readListing } from './reddit.listings.ts';
import { isUnavailableStatus, parseListing, reasonFromAbout, reasonFromSearch } from './reddit.mapping.ts';
import { MAX_PAGE_SIZE, MAX_SUBREDDITS_PER_REQUEST, aboutPath, buildQueries, chunk, searchPath } from './reddit.query.ts';
import { describeSubreddits } from './reddit.subreddits.ts';
import type {
  DescribeOptions,
  ListingInput,
  ListingOutput,
  RedditItem,
  RedditPost,
  SearchInput,
  SearchOutput,
  SkippedItem,
  SubredditDescription,
} from './reddit.types.ts';

export interface RedditClient {
  search(input: SearchInput): Promise<SearchOutput>;
  /**
   * One post (t3_) or comment (t1_) by its fullname, with the app-only token (`/api/info?id=`); null when
   * Reddit does not know it. A comment read this way has no post title (Reddit's info answer leaves
   * link_title out), so `title` is '' and the caller reads its post, named in `permalink`, if it needs one.
   */
  getItem(fullname: string, accountId?: string): Promise<RedditItem | null>;
  /**
   * The state of each named subreddit (names without "r/"), in as few requests as Reddit allows: one
   * `/api/info?sr_name=` per 100 names, then an about page only for those that answer cannot settle
   * (reddit.subreddits.ts). With `maxRequests`, the names not settled within them are left out.
   */
  describeSubreddits(names: string[], options?: DescribeOptions): Promise<SubredditDescription[]>;
  /**
   * One page (limit=100, raw_json=1) of `/r/a+b+c/new` (posts) or `/r/a+b+c/comments` (comments),
   * newest first. Throws RedditUnavailableError (429 / 5xx after retries) and RedditBlockedError.
   */
  listing(input: ListingInput): Promise<ListingOutput>;
  /**
   * Up to 100 posts and comments by fullname in one `/api/info?id=` (reddit.listings.ts readInfo): the
   * ones Reddit can show, in no order, the rest absent. `consumer`: who the call is for in the shared budget.
   */
  info(fullnames: readonly string[], consumer?: string): Promise<{ items: RedditItem[]; skipped: number }>;
}

export interface RedditClientOptions {
  clientId: string;
  clientSecret: string;
  userAgent: string;
  /** e.g. https://oauth.reddit.com (no trailing slash) */
  apiUrl: string;
  /** e.g. https://www.reddit.com */
  authUrl: string;
  /** Per HTTP call, default 10000. */
  timeoutMs?: number;
  /** Default 3. */
  maxRetries?: number;
  /** Injectable so tests don't wait. */
  sleep?: (ms: number) => Promise<void>;
  /** ms clock, injectable. */
  now?: () => number;
  /** The shared Reddit request budget (reddit.budget.ts); none: calls are not counted. */
  budget?: RedditHttpOptions['budget'];
}

/** Safety stop for one keyword batch's pagination (Reddit serves at most ~1000 results anyway). */
const MAX_PAGES_PER_BATCH = 20;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function createRedditClient(options: RedditClientOptions): RedditClient {
  const http = createRedditHttp({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    userAgent: options.userAgent,
    apiUrl: trimSlash(options.apiUrl),
    authUrl: trimSlash(options.authUrl),
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRetries: options.maxRetries ?? 3,
    sleep: options.sleep ?? realSleep,
    now: options.now ?? Date.now,
    budget: options.budget,
  });
  return {
    search: (input) => new Search(http, input).run(),
    async getItem(fullname, accountId) {
      const response = await http.get(`/api/info?id=${encodeURIComponent(fullname)}&raw_json=1`, accountId);
      if (response.status === 404) return null;
      if (response.status !== 200) {
        throw new RedditUnavailableError(`Reddit answered a look-up by id with HTTP ${response.status}`, undefined, response.status);
      }
      const { items } = parseItems(response.body, fullname.startsWith('t1_') ? 'comments' : 'posts');
      return items.find((item) => item.id === fullname) ?? null;
    },
    describeSubreddits: (names, describeOptions) => describeSubreddits(http, names, describeOptions),
    listing: (input) => readListing(http, input),
    info: (fullnames, consumer) => readInfo(http, fullnames, consumer),
  };
}

type PageOutcome = { ok: true } | { ok: false; status: number; body: unknown };

/** State of one `search` call. */
class Search {
  private readonly found = new Map<string, RedditPost>();
  private readonly unavailable: SearchOutput['unavailable'] = [];
  /** Unreadable posts by id (those without one each count once), as pages can repeat them. */
  private readonly skipped = new Map<string, SkippedItem>();
  /** About-page verdicts already fetched in this search (null = looks available). */
  private readonly verdicts = new Map<string, ReturnType<typeof reasonFromAbout>>();
  private readonly limit: number;

  constructor(
    private readonly http: RedditHttp,
    private readonly input: SearchInput,
  ) {
    this.limit = Math.max(0, Math.floor(input.limit));
  }

  async run(): Promise<SearchOutput> {
    const queries = buildQueries(this.input.keywords);
    if (queries.length > 0 && this.limit > 0) {
      for (const subreddits of chunk(this.input.subreddits, MAX_SUBREDDITS_PER_REQUEST)) {
        let live = subreddits;
        for (const q of queries) {
          if (this.full() || live.length === 0) break;
          live = await this.searchBatch(live, q);
        }
      }
    }
    return { posts: [...this.found.values()], unavailable: this.unavailable, skipped: [...this.skipped.values()] };
  }

  private full(): boolean {
    return this.found.size >= this.limit;
  }

  /**
   * Runs one keyword batch against some subreddits. When the combined search is refused, probes each
   * subreddit, reports the unavailable ones and re-runs on the rest. Returns the subreddits that remain.
   */
  private async searchBatch(subreddits: string[], q: string): Promise<string[]> {
    let live = subreddits;
    while (live.length > 0) {
      const outcome = await this.paginate(live, q);
      if (outcome.ok) return live;
      const bad = new Set<string>();
      for (const name of live) {
        const reason = await this.probe(name);
        if (reason) {
          bad.add(name);
          this.unavailable.push({ subreddit: name, reason });
        }
      }
      if (bad.size > 0) {
        live = live.filter((name) => !bad.has(name));
        continue;
      }
      if (live.length === 1) {
        // The about page looks fine but the search is refused: trust the search answer.
        this.unavailable.push({ subreddit: live[0]!, reason: reasonFromSearch(outcome.status, outcome.body) });
        return [];
      }
      // Probes were inconclusive: search the subreddits one by one to isolate the culprit.
      const survivors: string[] = [];
      for (const name of live) {
        if (this.full()) survivors.push(name);
        else survivors.push(...(await this.searchBatch([name], q)));
      }
      return survivors;
    }
    return live;
  }

  /** Follows `after` until the batch is exhausted, yields nothing new, or the limit is reached. */
  private async paginate(subreddits: string[], q: string): Promise<PageOutcome> {
    let after: string | null = null;
    for (let page = 0; page < MAX_PAGES_PER_BATCH && !this.full(); page++) {
      const path = searchPath({
        subreddits,
        q,
        sort: this.input.sort,
        time: this.input.time,
        pageSize: Math.min(MAX_PAGE_SIZE, this.limit - this.found.size),
        includeNsfw: this.input.includeNsfw,
        after,
      });
      const response = await this.http.get(path, this.input.accountId);
      if (isUnavailableStatus(response.status)) return { ok: false, status: response.status, body: response.body };
      if (response.status !== 200) {
        const status = response.status;
        throw new RedditUnavailableError(`Reddit answered a search with unexpected HTTP ${status}`, undefined, status);
      }
      const listing = parseListing(response.body);
      for (const item of listing.skipped) this.skipped.set(item.id ?? `#${this.skipped.size}`, item);
      let added = 0;
      for (const post of listing.posts) {
        if (this.full()) break;
        if (this.found.has(post.id)) continue;
        this.found.set(post.id, post);
        added++;
      }
      if (!listing.after || added === 0) break;
      after = listing.after;
    }
    return { ok: true };
  }

  private async probe(name: string): Promise<ReturnType<typeof reasonFromAbout>> {
    const key = name.toLowerCase();
    if (!this.verdicts.has(key)) {
      const response = await this.http.get(aboutPath(name), this.input.accountId);
      this.verdicts.set(key, reasonFromAbout(response.status, response.body));
    }
    return this.verdicts.get(key) ?? null;
  }
}
