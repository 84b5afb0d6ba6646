import type { RedditItem, RedditPost } from '../../integrations/reddit/reddit.types.ts';
import { buildKeywordIndex, matchedText } from '../../shared/matching/keywords.ts';
import { SCRAPE_SOURCES, type ScrapeBody } from './scrape.schemas.ts';
import { invalidFields, rules } from '../../shared/http/validation-messages.ts';

export interface ScrapeRequest {
  subreddits: string[];
  keywords: string[];
  sort: 'new' | 'relevance' | 'top';
  time: 'hour' | 'day' | 'week' | 'month' | 'year' | 'all';
  limit: number;
  include_nsfw: boolean;
  /** Absent in scrapes stored before comments could be read: posts only. */
  sources?: ScrapeSource[];
}

export type ScrapeSource = (typeof SCRAPE_SOURCES)[number];

/**
 * A post or comment as a scrape returns it: the item's fields, with its subreddit as "r/name", a post's
 * url and comment count (a comment's own page and 0), and the keywords found. Posts also carry
 * `truncated` (results stored before that rule and comments have none).
 */
export type ScrapeResult = Omit<RedditItem, 'subreddit'> &
  Pick<RedditPost, 'url' | 'num_comments'> &
  Partial<Pick<RedditPost, 'truncated'>> & {
    /** "r/name" as Reddit spells it. */
    subreddit: string;
    matched_keywords: string[];
  };

/**
 * The request's keywords found in a post (title and text) or a comment (its text), in request order.
 * It is the matcher monitors use, in `phrase` mode (anywhere in the text, with its Unicode case folds
 * and whitespace runs as one space), so a scrape and a monitor with the same keywords agree on an item.
 */
export function keywordFinder(keywords: string[]): (item: Pick<RedditItem, 'type' | 'title' | 'body'>) => string[] {
  const rule = 'scrape';
  const index = buildKeywordIndex([{ monitorId: rule, keywords, excludeKeywords: [], mode: 'phrase' }]);
  return (item) => index.match(matchedText(item)).get(rule) ?? [];
}

/** Newest first, then by id: the order results are listed in. */
export const newestFirst = (a: ScrapeResult, b: ScrapeResult) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/** Keeps the first spelling of each case-insensitive duplicate, in request order. */
function foldDuplicates(values: string[]): string[] {
  const seen = new Map<string, string>();
  for (const value of values) if (!seen.has(value.toLowerCase())) seen.set(value.toLowerCase(), value);
  return [...seen.values()];
}

/** Applies defaults, trims and folds the body; a keyword that is blank or too long after trimming is a 422. */
export function normalizeScrapeBody(body: ScrapeBody): ScrapeRequest {
  const problems = body.keywords.flatMap((keyword, index) => {
    // Counted in code points, as the schema's pattern counts them.
    const length = [...keyword.trim()].length;
    if (length >= 1 && length <= 100) return [];
    return [{ path: `/keywords/${index}`, message: `${rules.length(1, 100)} after trimming spaces` }];
  });
  if (problems.length > 0) {
    throw invalidFields('The request body', problems);
  }
  return {
    subreddits: foldDuplicates(body.subreddits).map((s) => `r/${s.slice(2)}`),
    keywords: foldDuplicates(body.keywords.map((k) => k.trim())),
    sort: body.sort ?? 'new',
    time: (body.time ?? 'week') as ScrapeRequest['time'],
    limit: body.limit ?? 100,
    include_nsfw: body.include_nsfw ?? false,
    sources: SCRAPE_SOURCES.filter((source) => (body.sources ?? ['posts']).includes(source)),
  };
}

/**
 * Reddit's search is fuzzy (stemming, other subreddits via crossposts), so the results are
 * re-checked here: only posts of the requested subreddits that contain at least one keyword.
 */
export function selectResults(posts: RedditPost[], request: ScrapeRequest): ScrapeResult[] {
  const wanted = new Map(request.subreddits.map((s) => [s.slice(2).toLowerCase(), s]));
  const byId = new Map<string, ScrapeResult>();
  const keywordsIn = keywordFinder(request.keywords);
  for (const post of posts) {
    const subreddit = wanted.get(post.subreddit.toLowerCase());
    if (!subreddit || byId.has(post.id) || (post.nsfw && !request.include_nsfw)) continue;
    const matched = keywordsIn({ type: 'post', title: post.title, body: post.body });
    if (matched.length === 0) continue;
    byId.set(post.id, { ...post, type: 'post', subreddit: `r/${post.subreddit}`, matched_keywords: matched });
  }
  return [...byId.values()]
    .sort(newestFirst)
    .slice(0, request.limit);
}
