/**
 * Builds Reddit search requests: the `q` strings (keywords OR'ed, batched under Reddit's 512-character
 * limit), the subreddit path segments (chunked) and the query-string parameters.
 */

/** Reddit rejects or truncates a search `q` longer than this many characters. */
export const MAX_QUERY_LENGTH = 512;
/** Subreddits combined into one `/r/a+b+c/search` path. */
export const MAX_SUBREDDITS_PER_REQUEST = 50;
/** Reddit's largest page size for listings. */
export const MAX_PAGE_SIZE = 100;
/**
 * Subreddits combined into one `/r/a+b+c/new` or `/comments` path. Names are at most 21 characters,
 * so 100 of them with their "+" make a path of about 2.3 KB: well inside the 8 KB request lines that
 * common servers and proxies accept, while cutting the requests per poll a hundredfold.
 */
export const MAX_SUBREDDITS_PER_LISTING = 100;

const SEPARATOR = ' OR ';
/** Words Reddit's search parser treats as operators; quoting keeps them literal. */
const OPERATORS = new Set(['AND', 'OR', 'NOT']);

/**
 * One keyword as a search term: `"` characters removed, whitespace collapsed, and quoted as a phrase
 * when it contains whitespace (or would otherwise be read as search syntax). Null when nothing is left.
 */
export function formatKeyword(keyword: string, maxLength = MAX_QUERY_LENGTH): string | null {
  let text = keyword.replace(/"/g, '').replace(/\s+/g, ' ').trim();
  if (!text) return null;
  const quote = /\s/.test(text) || /[():]/.test(text) || OPERATORS.has(text);
  const room = quote ? maxLength - 2 : maxLength;
  if (text.length > room) text = text.slice(0, room).trim();
  return quote ? `"${text}"` : text;
}

/**
 * The `q` strings for a keyword list: every keyword appears in exactly one query, terms are joined with
 * " OR ", and each query is at most `maxLength` characters. Terms are packed first-fit so the number of
 * queries (and so of requests) stays small.
 */
export function buildQueries(keywords: readonly string[], maxLength = MAX_QUERY_LENGTH): string[] {
  const batches: string[] = [];
  const seen = new Set<string>();
  for (const keyword of keywords) {
    const term = formatKeyword(keyword, maxLength);
    if (term === null || seen.has(term.toLowerCase())) continue;
    seen.add(term.toLowerCase());
    const index = batches.findIndex((batch) => batch.length + SEPARATOR.length + term.length <= maxLength);
    if (index === -1) batches.push(term);
    else batches[index] = batches[index] + SEPARATOR + term;
  }
  return batches;
}

/** Splits a list into consecutive chunks of at most `size` items. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

export interface SearchRequest {
  subreddits: readonly string[];
  q: string;
  sort: string;
  time: string;
  pageSize: number;
  includeNsfw: boolean;
  after: string | null;
}

/** Path and query string (relative to the API base URL) of one search page. */
export function searchPath(request: SearchRequest): string {
  const params = new URLSearchParams({
    q: request.q,
    restrict_sr: '1',
    sort: request.sort,
    t: request.time,
    limit: String(Math.max(1, Math.min(MAX_PAGE_SIZE, request.pageSize))),
    raw_json: '1',
    include_over_18: request.includeNsfw ? 'on' : 'off',
  });
  if (request.after) params.set('after', request.after);
  return `${subredditPath(request.subreddits)}/search?${params.toString()}`;
}

/** Names one `/api/info?sr_name=` request describes (Reddit's page size for things by name). */
export const MAX_NAMES_PER_INFO = 100;

/** Path of one request that describes many subreddits by name. */
export function subredditInfoPath(names: readonly string[]): string {
  return `/api/info?${new URLSearchParams({ sr_name: names.join(','), raw_json: '1' }).toString()}`;
}

/** Path of a subreddit's about page, used to find out why a search failed. */
export function aboutPath(subreddit: string): string {
  return `${subredditPath([subreddit])}/about?raw_json=1`;
}

/** `/r/a+b+c` with each name URL-encoded. */
export function subredditPath(subreddits: readonly string[]): string {
  return `/r/${subreddits.map((name) => encodeURIComponent(name)).join('+')}`;
}
