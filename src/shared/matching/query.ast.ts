/**
 * The shape of a parsed query, its limits and its error, in a file of their own so the parser, the
 * printer and the evaluator share them without importing one another.
 */

/** The part of an item a text term may be limited to. */
export type TextField = 'title' | 'body' | 'flair';

export type QueryNode =
  /** A word or phrase; `field: null` is the item's own text (a post's title or body, a comment's body). */
  | { kind: 'term'; text: string; field: TextField | null }
  /** A Reddit username, without "u/", matched whole and case-insensitively. */
  | { kind: 'author'; name: string }
  | { kind: 'type'; value: 'post' | 'comment' }
  | { kind: 'not'; node: QueryNode }
  /** Two or more nodes, none of them itself an `and`. */
  | { kind: 'and'; nodes: QueryNode[] }
  /** Two or more nodes, none of them itself an `or`. */
  | { kind: 'or'; nodes: QueryNode[] };

/** What the parser accepts; what it refuses beyond them is a QuerySyntaxError saying which limit. */
export const QUERY_LIMITS = {
  /** Code points in the whole query. */
  length: 1000,
  /** Code points in one word or phrase (a phrase after trimming its spaces). */
  termLength: 100,
  /** Words, phrases, `author:` and `type:` filters together. */
  terms: 100,
  /** Parentheses inside parentheses. */
  depth: 10,
} as const;

/** Every field name the grammar knows, lower case (field names are case-insensitive). */
export const FIELD_NAMES: ReadonlySet<string> = new Set(['title', 'body', 'flair', 'author', 'type']);

/**
 * A word that reads as a field and a value: two or more letters, a colon, and what a field takes
 * (a letter, a digit, a quote or a parenthesis) right after it. `titel:foo` is one; `http://x`,
 * `c:foo`, `std::vector`, `10:30` and `re:` are words.
 */
export const FIELD_LIKE = /^\p{L}{2,}:[\p{L}\p{N}"(]/u;

/** A query that cannot be used: where (1-based, in code points) and what was expected there. */
export class QuerySyntaxError extends Error {
  override name = 'QuerySyntaxError';

  constructor(
    /** The offending character; for something never closed, where it opened; past the end when the query stopped short. */
    readonly position: number,
    /** What would have been right there, in words a person can act on: 'a word, a phrase or "("'. */
    readonly expected: string,
    problem: string,
  ) {
    super(`at character ${position}: ${problem}`);
  }
}

/**
 * The constructors every producer of nodes uses (parser, shorthand, tests), so each AST has one
 * shape: `and`/`or` flattened, never of one node, and a double negation gone (it means its inner
 * node, so keeping it would only give one query two trees and two printed forms).
 */
export const term = (text: string, field: TextField | null = null): QueryNode => ({ kind: 'term', text, field });

export const not = (node: QueryNode): QueryNode => (node.kind === 'not' ? node.node : { kind: 'not', node });

export const and = (nodes: QueryNode[]): QueryNode => join('and', nodes);

export const or = (nodes: QueryNode[]): QueryNode => join('or', nodes);

function join(kind: 'and' | 'or', nodes: QueryNode[]): QueryNode {
  const flat = nodes.flatMap((node) => (node.kind === kind ? node.nodes : [node]));
  if (flat.length === 0) throw new RangeError(`an "${kind}" needs at least one node`);
  return flat.length === 1 ? flat[0]! : { kind, nodes: flat };
}
