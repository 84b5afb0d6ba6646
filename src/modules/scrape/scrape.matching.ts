import type { RedditItem, RedditPost } from '../../integrations/reddit/reddit.types.ts';
import { buildMatchIndex, type MatchItem, type MatchMode } from '../../shared/matching/keywords.ts';
import { combinedQuery, parseQuery, searchTerms } from '../../shared/matching/query.ts';
import { SCRAPE_SOURCES, type ScrapeBody } from './scrape.schemas.ts';
import { subredditName, subredditProblem } from '../../shared/http/subreddit.ts';
import { invalidFields, matchingRuleCode, NOTHING_TO_MATCH, queryProblem, rules } from '../../shared/http/validation-messages.ts';

export interface ScrapeRequest {
  subreddits: string[];
  /** May be empty when a query is given. */
  keywords: string[];
  /** The query as given (docs/api/queries.md); absent in scrapes stored before queries, null: keywords alone. */
  query?: string | null;
  /** How terms match; absent in scrapes stored before the choice, which matched as `phrase`. */
  match?: MatchMode;
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
 * The request's keywords and query, as one rule: what it finds in a post (title and text) or a comment
 * (its text), the terms found in request order. It is the matcher monitors use, in the request's mode
 * (with its Unicode case folds and whitespace runs as one space), so a scrape and a monitor with the
 * same keywords or query and mode agree on an item. null: no match (a match by `author:` alone finds
 * no term, so an empty list is a match).
 */
export function keywordFinder(request: Pick<ScrapeRequest, 'keywords' | 'query' | 'match'>): (item: MatchItem) => string[] | null {
  const rule = 'scrape';
  const query = combinedQuery({ keywords: request.keywords, excludes: [], query: request.query ?? null });
  const index = buildMatchIndex([{ monitorId: rule, query, mode: request.match ?? 'phrase' }]);
  return (item) => index.match(item).get(rule) ?? null;
}

/**
 * What Reddit's search is asked for, and what the scrape is priced on: the keywords, or with a query
 * every word and phrase it asks for (Reddit's search finds a superset; the rule above decides).
 */
export const searchKeywords = (request: Pick<ScrapeRequest, 'keywords' | 'query'>): string[] =>
  request.query ? searchTerms(combinedQuery({ keywords: request.keywords, excludes: [], query: request.query })) : request.keywords;

/** Newest first, then by id: the order results are listed in. */
export const newestFirst = (a: ScrapeResult, b: ScrapeResult) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/** Keeps the first spelling of each case-insensitive duplicate, in request order. */
function foldDuplicates(values: string[]): string[] {
  const seen = new Map<string, string>();
  for (const value of values) if (!seen.has(value.toLowerCase())) seen.set(value.toLowerCase(), value);
  return [...seen.values()];
}

/** The query's problem, if it has one: a syntax error at its position, or nothing Reddit's search could be asked for. */
function queryProblems(query: string | null): { path: string; message: string; position?: number }[] {
  if (query === null) return [];
  const problem = queryProblem(query);
  if (problem) return [problem];
  if (searchTerms(parseQuery(query)).length > 0) return [];
  return [{ path: '/query', message: 'needs a word or phrase that must be present: a scrape searches Reddit for them (author: or flair: alone cannot be searched)' }];
}

/** Applies defaults, trims and folds the body; a keyword that is blank or too long after trimming, or a bad query, is a 422. */
export function normalizeScrapeBody(body: ScrapeBody): ScrapeRequest {
  const keywords = body.keywords ?? [];
  const query = body.query?.trim() || null;
  const problems = keywords.flatMap((keyword, index) => {
    // Counted in code points, as the schema's pattern counts them.
    const length = [...keyword.trim()].length;
    if (length >= 1 && length <= 100) return [];
    return [{ path: `/keywords/${index}`, message: rules.trimmed(100) }];
  });
  // The schema has let only accepted forms through; a caller without it (a form) gets the same refusal.
  const subreddits = body.subreddits.map((text, index) => {
    const name = subredditName(text);
    if (name === null) problems.push({ path: `/subreddits/${index}`, message: subredditProblem(text) });
    return name ?? text;
  });
  problems.push(...queryProblems(query));
  if (keywords.length === 0 && query === null) problems.push({ path: '/keywords', message: NOTHING_TO_MATCH });
  if (problems.length > 0) {
    throw invalidFields('The request body', problems, matchingRuleCode(problems));
  }
  return {
    subreddits: foldDuplicates(subreddits),
    keywords: foldDuplicates(keywords.map((k) => k.trim())),
    query,
    match: body.match ?? 'word',
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
  const keywordsIn = keywordFinder(request);
  for (const post of posts) {
    const subreddit = wanted.get(post.subreddit.toLowerCase());
    if (!subreddit || byId.has(post.id) || (post.nsfw && !request.include_nsfw)) continue;
    const matched = keywordsIn({ ...post, type: 'post' });
    if (matched === null) continue;
    // The flair served the matching; results keep the fields they always had.
    const { flair: _flair, ...result } = post;
    byId.set(post.id, { ...result, type: 'post', subreddit: `r/${post.subreddit}`, matched_keywords: matched });
  }
  return [...byId.values()]
    .sort(newestFirst)
    .slice(0, request.limit);
}
