import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Automaton } from './automaton.ts';

/** Every occurrence of every pattern, found by looking at each position: what the automaton must report. */
function occurrences(patterns: string[], text: string): string[] {
  const found: string[] = [];
  patterns.forEach((pattern, index) => {
    for (let at = text.indexOf(pattern); at >= 0; at = text.indexOf(pattern, at + 1)) found.push(`${index}@${at}-${at + pattern.length}`);
  });
  return found.sort();
}

function reported(patterns: string[], text: string): string[] {
  const found: string[] = [];
  new Automaton(patterns).forEachMatch(text, (index, begin, end) => found.push(`${index}@${begin}-${end}`));
  return found.sort();
}

describe('the Aho-Corasick automaton', () => {
  it('reports overlapping and nested patterns, each at every place it occurs', () => {
    const patterns = ['he', 'she', 'his', 'hers', 'e'];
    expect(reported(patterns, 'ushers and she')).toEqual(occurrences(patterns, 'ushers and she'));
    expect(reported(patterns, 'ushers')).toEqual(['0@2-4', '1@1-4', '3@2-6', '4@3-4']);
  });

  it('counts positions in UTF-16 code units, so a pattern after an emoji begins where slice finds it', () => {
    const text = '🚀 api 東京';
    expect(reported(['api', '東京'], text)).toEqual([`0@${text.indexOf('api')}-${text.indexOf('api') + 3}`, `1@${text.indexOf('東京')}-${text.length}`]);
  });

  it('finds nothing in a text none of its patterns occurs in, and nothing with no patterns', () => {
    expect(reported(['rust', 'golang'], 'typescript and node')).toEqual([]);
    expect(reported([], 'anything')).toEqual([]);
  });

  it('agrees with a naive search on any patterns over a small alphabet, where suffixes share the most', () => {
    const small = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '🚀'), minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.uniqueArray(small, { minLength: 1, maxLength: 12 }), fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '🚀', ' '), maxLength: 60 }), (patterns, text) => {
        expect(reported(patterns, text)).toEqual(occurrences(patterns, text));
      }),
      { numRuns: 400 },
    );
  });
});
