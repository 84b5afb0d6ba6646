import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** A price compared with a balance, or a price added up: a money decision written where it does not belong. */
const PRICE_DECISION = /[<>]=?\s*(?:deps\.)?prices\.\w+|(?:deps\.)?prices\.\w+\s*[<>]=?/;

/** Every source file of a module other than credits, with its text. */
function moduleSources(): [path: string, text: string][] {
  return readdirSync('src/modules', { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.startsWith('credits/'))
    .map((path) => [join('src/modules', path), readFileSync(join('src/modules', path), 'utf8')]);
}

describe('where money is decided', () => {
  it('no module but credits compares a balance with a price: it asks credits (canPayMatch, canPayDraft, …)', () => {
    const decisions = moduleSources().flatMap(([path, text]) =>
      text.split('\n').flatMap((line, i) => (PRICE_DECISION.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(decisions).toEqual([]);
  });

  it('the check sees a comparison written either way round', () => {
    expect(['balance >= prices.generate', 'prices.publish > held', 'x < deps.prices.judge'].map((line) => PRICE_DECISION.test(line))).toEqual([true, true, true]);
    expect(PRICE_DECISION.test('const price = prices.generate;')).toBe(false);
  });
});
