/**
 * A query made ready for the matching index: its leaves numbered, and a function of which leaves
 * were found. The index finds the leaves (one automaton for every rule's terms, a map of authors);
 * this only combines what was found, so evaluating a rule costs a few calls, not a search.
 */
import type { QueryNode, TextField } from './query.ast.ts';

/**
 * `lifts`: under an even number of NOTs, so finding it can only make the query truer. A query is
 * anchored (false when nothing is found: query.parse.ts), so one of these must be found for it to be
 * true: the index weighs a rule only when one is, and a hit on a term it rules out costs nothing.
 */
export type QueryLeaf =
  /** `positive`: under no NOT, so a term the query asks for (reported when found), not one it rules out. */
  | { kind: 'term'; text: string; field: TextField | null; positive: boolean; lifts: boolean }
  | { kind: 'author'; name: string; lifts: boolean };

type Test = (found: Uint8Array, type: 'post' | 'comment') => boolean;

export interface CompiledQuery {
  /** The query's terms and authors in query order; a leaf's index is its slot in `found`. */
  leaves: QueryLeaf[];
  /** Whether the query is true for an item of this type in which the leaves whose slot is 1 were found. */
  test: Test;
}

export function compileQuery(node: QueryNode): CompiledQuery {
  const leaves: QueryLeaf[] = [];
  const build = (current: QueryNode, positive: boolean, lifts: boolean): Test => {
    switch (current.kind) {
      case 'term':
      case 'author': {
        const slot = leaves.push(current.kind === 'term' ? { ...current, positive, lifts } : { ...current, lifts }) - 1;
        return (found) => found[slot] === 1;
      }
      case 'type': {
        const { value } = current;
        return (_, type) => type === value;
      }
      case 'not': {
        const inner = build(current.node, false, !lifts);
        return (found, type) => !inner(found, type);
      }
      case 'and': {
        const tests = current.nodes.map((child) => build(child, positive, lifts));
        return (found, type) => {
          for (const test of tests) if (!test(found, type)) return false;
          return true;
        };
      }
      case 'or': {
        const tests = current.nodes.map((child) => build(child, positive, lifts));
        return (found, type) => {
          for (const test of tests) if (test(found, type)) return true;
          return false;
        };
      }
    }
  };
  const test = build(node, true, true);
  return { leaves, test };
}
