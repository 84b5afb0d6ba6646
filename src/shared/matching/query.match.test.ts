import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMatchIndex, type MatchItem, type MatchMode, type QueryRule } from './keywords.ts';
import { and, not, or, term, type TextField } from './query.ast.ts';
import { parseQuery, printQuery, type QueryNode } from './query.ts';

// Few letters, so terms overlap, hide inside one another and turn up in every part of an item.
const TERMS = ['a', 'A', 'b', 'ab', 'ba', 'a b', 'é'];
const leaf = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...TERMS), fc.constantFrom<TextField | null>(null, null, 'title', 'body', 'flair')).map(([t, f]) => term(t, f)) },
  { weight: 1, arbitrary: fc.constantFrom<QueryNode>({ kind: 'author', name: 'bob' }, { kind: 'author', name: 'Alice' }) },
  { weight: 1, arbitrary: fc.constantFrom<QueryNode>({ kind: 'type', value: 'post' }, { kind: 'type', value: 'comment' }) },
);
const { node } = fc.letrec<{ node: QueryNode; not: QueryNode; and: QueryNode; or: QueryNode }>((tie) => ({
  node: fc.oneof({ maxDepth: 3, depthSize: 'small' }, leaf, tie('not'), tie('and'), tie('or')),
  not: tie('node').map(not),
  and: fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map(and),
  or: fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map(or),
}));
/** The index is only ever given queries the parser accepts (anchored ones). */
const query = node.filter((n) => {
  try {
    parseQuery(printQuery(n));
    return true;
  } catch {
    return false;
  }
});
const rules = fc
  .array(fc.tuple(query, fc.constantFrom<MatchMode>('phrase', 'word')), { minLength: 1, maxLength: 5 })
  .map((list) => list.map(([q, mode], i): QueryRule => ({ monitorId: `m${i}`, query: q, mode })));
const text = fc.array(fc.constantFrom('a', 'b', 'ab', 'A', 'é', ' ', '\n', '-'), { maxLength: 12 }).map((pieces) => pieces.join(''));
const item = fc.record({
  type: fc.constantFrom<'post' | 'comment'>('post', 'comment'),
  title: text,
  body: text,
  author: fc.constantFrom('bob', 'BOB', 'alice', 'carol'),
  flair: fc.option(text, { nil: undefined }),
});

/** The judge: plain regular expressions over each part, on the brief's meaning of every field. */
function expected(rule: QueryRule, entry: MatchItem): string[] | null {
  const fold = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
  const found = (t: { text: string; field: TextField | null }) => {
    const parts = t.field === null ? (entry.type === 'post' ? [entry.title, entry.body] : [entry.body]) : [t.field === 'flair' ? (entry.flair ?? '') : entry[t.field]];
    // Every term here begins and ends with a letter, so word mode is two look-arounds.
    const edge = rule.mode === 'word' ? ['(?<![\\p{L}\\p{N}\\p{M}_])', '(?![\\p{L}\\p{N}\\p{M}_])'] : ['', ''];
    const pattern = new RegExp(`${edge[0]}${fold(t.text)}${edge[1]}`, 'u');
    return parts.some((part) => pattern.test(fold(part)));
  };
  const value = (n: QueryNode): boolean => {
    switch (n.kind) {
      case 'term':
        return found(n);
      case 'author':
        return n.name.toLowerCase() === entry.author.toLowerCase();
      case 'type':
        return n.value === entry.type;
      case 'not':
        return !value(n.node);
      case 'and':
        return n.nodes.every(value);
      case 'or':
        return n.nodes.some(value);
    }
  };
  if (!value(rule.query)) return null;
  const reported = new Map<string, string>();
  const visit = (n: QueryNode): void => {
    if (n.kind === 'term' && found(n) && !reported.has(fold(n.text))) reported.set(fold(n.text), n.text);
    if (n.kind === 'and' || n.kind === 'or') n.nodes.forEach(visit);
  };
  visit(rule.query);
  return [...reported.values()];
}

describe('the matching index, over generated queries and items', () => {
  it('gives every rule true for an item, with the terms it asked for and found, as a plain evaluation does', () => {
    fc.assert(
      fc.property(rules, fc.array(item, { minLength: 1, maxLength: 8 }), (list, items) => {
        const index = buildMatchIndex(list);
        for (const entry of items) {
          const want = new Map<string, string[]>();
          for (const rule of list) {
            const found = expected(rule, entry);
            if (found) want.set(rule.monitorId, found);
          }
          expect(index.match(entry)).toEqual(want);
        }
      }),
      { numRuns: 500 },
    );
  });
});
