import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { and, not, or, term, type TextField } from './query.ast.ts';
import { parseQuery, printQuery, QUERY_LIMITS, QuerySyntaxError, type QueryNode } from './query.ts';

/** Terms the printer must quote or may leave bare, and what a parser could misread. */
const TRICKY_TERMS = ['api', 'Api', 'OR', 'AND', 'NOT', 'or', '-x', 'e-mail', 'x-', 'title:x', 'Author:y', 'http://x', 'c:', ':', '"', 'a"b', '\\', 'c\\', 'a\\"b', '\\\\', '(', 'x)', 'ß', '🚀', '👍🏽', '東京', 'machine learning', 'a\tb'];
const text = fc
  .oneof(fc.constantFrom(...TRICKY_TERMS), fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }))
  .filter((t) => t !== '' && t === t.trim() && !t.includes('\u0000'));
const field = fc.constantFrom<TextField | null>(null, 'title', 'body', 'flair');
const leaf = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(text, field).map(([t, f]) => term(t, f)) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/).map((name): QueryNode => ({ kind: 'author', name })) },
  { weight: 1, arbitrary: fc.constantFrom<QueryNode>({ kind: 'type', value: 'post' }, { kind: 'type', value: 'comment' }) },
);
// Built with the parser's constructors: an AST it could return is flat and has no double negation.
const { node } = fc.letrec<{ node: QueryNode; not: QueryNode; and: QueryNode; or: QueryNode }>((tie) => ({
  node: fc.oneof({ maxDepth: 5, depthSize: 'small' }, leaf, tie('not'), tie('and'), tie('or')),
  not: tie('node').map(not),
  and: fc.array(tie('node'), { minLength: 2, maxLength: 4 }).map(and),
  or: fc.array(tie('node'), { minLength: 2, maxLength: 4 }).map(or),
}));

const leaves = (n: QueryNode): number =>
  n.kind === 'not' ? leaves(n.node) : n.kind === 'and' || n.kind === 'or' ? n.nodes.reduce((sum, child) => sum + leaves(child), 0) : 1;
/** The rule as the brief states it, apart from the parser's: Kleene's values with words false and types unknown. */
const withoutWords = (n: QueryNode): boolean | null => {
  if (n.kind === 'type') return null;
  if (n.kind === 'term' || n.kind === 'author') return false;
  if (n.kind === 'not') {
    const value = withoutWords(n.node);
    return value === null ? null : !value;
  }
  const values = n.nodes.map(withoutWords);
  if (n.kind === 'and') return values.includes(false) ? false : values.includes(null) ? null : true;
  return values.includes(true) ? true : values.includes(null) ? null : false;
};

/** Pieces of queries, right and wrong, so that random strings hit every rule of the grammar. */
const PIECES = ['a', 'b', 'Api', 'é', 'ß', '🚀', '東京', 'OR', 'AND', 'NOT', 'or', '-', '(', ')', '"', '\\', ':', ' ', ' ', '\n', 'title:', 'Body:', 'flair:', 'author:', 'bob', 'u/bob', 'type:', 'post', 'comment', 'e-mail', 'http://x'];
const queryText = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 30 }).map((pieces) => pieces.join(''));

const parsedOrError = (query: string): QueryNode | QuerySyntaxError => {
  try {
    return parseQuery(query);
  } catch (error) {
    if (error instanceof QuerySyntaxError) return error;
    throw error;
  }
};

describe('printing and parsing queries, over generated queries', () => {
  it('parses the printed text of any AST back to that AST, or refuses it only for not being anchored', () => {
    const withinLimits = node.filter((n) => leaves(n) <= QUERY_LIMITS.terms && [...printQuery(n)].length <= QUERY_LIMITS.length);
    fc.assert(
      fc.property(withinLimits, (n) => {
        const again = parsedOrError(printQuery(n));
        if (withoutWords(n) === false) expect(again).toEqual(n);
        else expect(again).toMatchObject({ position: 1, expected: 'a word or phrase it must contain' });
      }),
      { numRuns: 1000 },
    );
  });

  it('prints any query that parses as a text that parses to the same AST, and prints that text again unchanged', () => {
    let valid = 0;
    fc.assert(
      fc.property(queryText, (query) => {
        const parsed = parsedOrError(query);
        // Whatever is wrong, the error points inside the query or just past its end.
        if (parsed instanceof QuerySyntaxError) {
          expect(parsed.position).toBeLessThanOrEqual([...query].length + 1);
          return;
        }
        valid++;
        const printed = printQuery(parsed);
        expect(parseQuery(printed)).toEqual(parsed);
        expect(printQuery(parseQuery(printed))).toBe(printed);
      }),
      { numRuns: 3000 },
    );
    // The property means little if almost nothing generated parses.
    expect(valid).toBeGreaterThan(300);
  });
});
