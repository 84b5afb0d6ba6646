/**
 * Boolean queries over posts and comments: words, phrases, AND / OR / NOT, parentheses and the
 * fields title:, body:, flair:, author: and type: (docs/api/queries.md). This file is what the rest
 * of the service imports; the parser, the printer and the node shapes have files of their own.
 */
import { and, not, or, term, type QueryNode } from './query.ast.ts';
import { parseQuery } from './query.parse.ts';

export { QUERY_LIMITS, QuerySyntaxError, type QueryNode, type TextField } from './query.ast.ts';
export { parseQuery };
export { printQuery } from './query.print.ts';

/**
 * The query that monitor keywords and excludes mean: any keyword, and none of the excludes
 * (`(k1 OR k2) -x1 -x2`). Terms are taken as given, not parsed; at least one keyword is needed, since
 * a query of excludes alone would match everything else.
 */
export function keywordsQuery(keywords: string[], excludes: string[]): QueryNode {
  if (keywords.length === 0) throw new RangeError('a keywords query needs at least one keyword');
  return and([or(keywords.map((keyword) => term(keyword))), ...excludes.map((exclude) => not(term(exclude)))]);
}

/** Both queries, for a monitor that has keywords and a query. */
export function andQueries(a: QueryNode, b: QueryNode): QueryNode {
  return and([a, b]);
}

/**
 * A monitor's or a scrape's whole rule as one query: any of its keywords, none of its excludes, and
 * its query text when it has one (all must hold). The text was checked when it was stored and is
 * parsed again here, so a QuerySyntaxError means a stored query the grammar no longer accepts.
 */
export function combinedQuery(rule: { keywords: string[]; excludes: string[]; query: string | null }): QueryNode {
  if (rule.query === null) return keywordsQuery(rule.keywords, rule.excludes);
  // Stored queries may hold a word like `note:this` from before unknown fields were refused: still a word.
  const query = parseQuery(rule.query, { unknownFields: 'word' });
  if (rule.keywords.length > 0) return andQueries(keywordsQuery(rule.keywords, rule.excludes), query);
  // The query anchors the rule, so excludes without keywords only narrow it.
  return and([query, ...rule.excludes.map((exclude) => not(term(exclude)))]);
}

/**
 * The words and phrases the query asks for (not those under a NOT), in query order, each once
 * whatever its case (in its first spelling): what a Reddit search is asked for and what a scrape is
 * priced on. `title:` and `body:` terms are in; `flair:` terms are not, since a search for a flair's
 * words finds posts that contain them, not posts with that flair. Empty for a query of `author:` and
 * `flair:` filters alone.
 */
export function searchTerms(node: QueryNode): string[] {
  const found = new Map<string, string>();
  const visit = (current: QueryNode): void => {
    if (current.kind === 'term' && current.field !== 'flair') {
      const key = current.text.toLowerCase();
      if (!found.has(key)) found.set(key, current.text);
    } else if (current.kind === 'and' || current.kind === 'or') current.nodes.forEach(visit);
  };
  visit(node);
  return [...found.values()];
}

/**
 * Whether the query has a `title:` term anywhere (under a NOT too, where a missing title makes the
 * NOT true): a comment read by id comes without its post's title, so such a rule cannot be answered
 * for comments from `/api/info` (the site-wide stream) and needs the listings, which carry it.
 */
export function readsTitles(node: QueryNode): boolean {
  if (node.kind === 'term') return node.field === 'title';
  if (node.kind === 'not') return readsTitles(node.node);
  if (node.kind === 'and' || node.kind === 'or') return node.nodes.some(readsTitles);
  return false;
}
