import { describe, expect, it } from 'vitest';
import { buildKeywordIndex, type MatchRule } from './keywords.ts';

const rule = (monitorId: string, keywords: string[], mode: MatchRule['mode'] = 'phrase', excludeKeywords: string[] = []): MatchRule => ({
  monitorId,
  keywords,
  excludeKeywords,
  mode,
});

const matchOne = (r: MatchRule, text: string) => buildKeywordIndex([r]).match(text).get(r.monitorId) ?? null;

describe('keyword matching for monitors', () => {
  it('phrase mode finds a keyword anywhere, inside words too, whatever its case', () => {
    expect(matchOne(rule('m', ['api']), 'A RAPID answer')).toEqual(['api']);
    expect(matchOne(rule('m', ['Node JS']), 'I like node js a lot')).toEqual(['Node JS']);
    expect(matchOne(rule('m', ['api']), 'nothing here')).toBeNull();
  });

  it('word mode needs whole words: "api" does not match "rapid" but matches "API," at the end and "(api)"', () => {
    const r = rule('m', ['api'], 'word');
    expect(matchOne(r, 'a rapid answer')).toBeNull();
    expect(matchOne(r, 'apis and mapi')).toBeNull();
    expect(matchOne(r, 'we need an API,')).toEqual(['api']);
    expect(matchOne(r, 'see (api) docs')).toEqual(['api']);
    expect(matchOne(r, 'api')).toEqual(['api']);
    expect(matchOne(r, 'snake_api is one word')).toBeNull();
  });

  it('word mode looks at every occurrence, so a hit inside a word does not hide a whole one later', () => {
    expect(matchOne(rule('m', ['api'], 'word'), 'rapid apis, then the api')).toEqual(['api']);
  });

  it('a keyword of several words matches that phrase across any run of whitespace, a line break too', () => {
    const r = rule('m', ['machine   learning'], 'word');
    expect(matchOne(r, 'all about Machine\n\t Learning.')).toEqual(['machine   learning']);
    expect(matchOne(r, 'machinelearning')).toBeNull();
    expect(matchOne(r, 'machine learnings')).toBeNull();
  });

  it('a keyword whose edges are not letters only has to keep letters around it whole', () => {
    const r = rule('m', ['c++'], 'word');
    expect(matchOne(r, 'I write c++ daily')).toEqual(['c++']);
    expect(matchOne(r, 'c++x is fine too')).toEqual(['c++']);
    expect(matchOne(r, 'abc++ is not it')).toBeNull();
  });

  it('an exclude drops the monitor for that item, in the monitor\'s mode', () => {
    expect(matchOne(rule('m', ['api'], 'phrase', ['Hiring']), 'API jobs: we are hiring')).toBeNull();
    expect(matchOne(rule('m', ['api'], 'phrase', ['hiring']), 'API news')).toEqual(['api']);
    // In word mode, "hire" inside "hired" is no exclude hit.
    expect(matchOne(rule('m', ['api'], 'word', ['hire']), 'the api team hired')).toEqual(['api']);
    expect(matchOne(rule('m', ['api'], 'word', ['hire']), 'hire an api dev')).toBeNull();
  });

  it('accented letters match across case and composed or decomposed forms', () => {
    expect(matchOne(rule('m', ['café'], 'word'), 'CAFÉ au lait')).toEqual(['café']);
    expect(matchOne(rule('m', ['café'], 'word'), 'cafe\u0301 au lait')).toEqual(['café']);
    expect(matchOne(rule('m', ['über'], 'word'), 'ÜBER alles')).toEqual(['über']);
    // An accent is part of the word: "cafe" is not a whole word of "café".
    expect(matchOne(rule('m', ['cafe'], 'word'), 'cafe\u0301')).toBeNull();
  });

  it('ß matches SS and ẞ, İ matches i, and a final ς matches σ, in phrase and word mode', () => {
    expect(matchOne(rule('m', ['straße'], 'word'), 'STRASSE 5')).toEqual(['straße']);
    expect(matchOne(rule('m', ['strasse'], 'word'), 'Die STRAẞE')).toEqual(['strasse']);
    expect(matchOne(rule('m', ['istanbul'], 'word'), 'İSTANBUL today')).toEqual(['istanbul']);
    expect(matchOne(rule('m', ['İstanbul']), 'flights to istanbul')).toEqual(['İstanbul']);
    expect(matchOne(rule('m', ['οδος']), 'ΟΔΟΣΗΜΑΝΣΗ')).toEqual(['οδος']);
  });

  it('letters beyond the basic plane are word characters, read as whole surrogate pairs', () => {
    // U+1D400 MATHEMATICAL BOLD CAPITAL A is a letter made of two UTF-16 code units.
    expect(matchOne(rule('m', ['api'], 'word'), '\u{1D400}api')).toBeNull();
    expect(matchOne(rule('m', ['api'], 'word'), 'api\u{1D400}')).toBeNull();
    expect(matchOne(rule('m', ['api'], 'phrase'), '\u{1D400}api')).toEqual(['api']);
  });

  it('emoji keywords match, and in word mode an emoji is no word character, so it matches next to letters', () => {
    expect(matchOne(rule('m', ['🚀 launch']), 'big 🚀  LAUNCH today')).toEqual(['🚀 launch']);
    expect(matchOne(rule('m', ['🚀'], 'word'), 'go🚀now')).toEqual(['🚀']);
    expect(matchOne(rule('m', ['api'], 'word'), '🚀api🚀')).toEqual(['api']);
    expect(matchOne(rule('m', ['👍🏽']), 'thumbs 👍🏽')).toEqual(['👍🏽']);
  });

  it('keywords that differ only in case count once, in the spelling the monitor gave first', () => {
    expect(matchOne(rule('m', ['API', 'api', 'Api']), 'the api')).toEqual(['API']);
  });

  it('the keywords found come back in the monitor\'s order and original spelling', () => {
    const r = rule('m', ['Zebra', 'apple', 'Mango'], 'word');
    expect(matchOne(r, 'mango, ZEBRA and apples')).toEqual(['Zebra', 'Mango']);
  });

  it('two monitors sharing a keyword both match, each with its own mode and excludes', () => {
    const index = buildKeywordIndex([
      rule('a', ['API'], 'phrase'),
      rule('b', ['api', 'sdk'], 'word'),
      rule('c', ['api'], 'phrase', ['rapid']),
    ]);
    expect(index.match('an api and an SDK')).toEqual(
      new Map([
        ['a', ['API']],
        ['b', ['api', 'sdk']],
        ['c', ['api']],
      ]),
    );
    expect(index.match('rapid')).toEqual(new Map([['a', ['API']]]));
  });

  it('with no rules nothing matches', () => {
    expect(buildKeywordIndex([]).match('anything at all')).toEqual(new Map());
  });

  it('agrees with a plain search over random texts and many overlapping keywords', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const letters = ['a', 'b', 'ab', ' ', 'é', '-'];
    const word = (n: number) => Array.from({ length: n }, () => letters[Math.floor(random() * letters.length)]).join('').trim() || 'a';
    const rules = Array.from({ length: 40 }, (_, i) =>
      rule(`m${i}`, Array.from({ length: 3 }, () => word(1 + Math.floor(random() * 4))), i % 2 ? 'word' : 'phrase', i % 5 ? [] : [word(3)]),
    );
    const index = buildKeywordIndex(rules);
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ +/g, ' ');
    const expected = (text: string) => {
      const found = new Map<string, string[]>();
      const hit = (r: MatchRule, keyword: string) => {
        const body = escape(keyword.toLowerCase());
        // Only a word character at the keyword's edge needs a non-word character beside it.
        const edge = (c: string) => (/[\p{L}\p{N}\p{M}_]/u.test(c) ? '[\\p{L}\\p{N}\\p{M}_]' : null);
        const before = r.mode === 'word' && edge(keyword.at(0)!) ? `(?<!${edge(keyword.at(0)!)})` : '';
        const after = r.mode === 'word' && edge(keyword.at(-1)!) ? `(?!${edge(keyword.at(-1)!)})` : '';
        const pattern = before + body + after;
        return new RegExp(pattern, 'u').test(text.toLowerCase().replace(/\s+/g, ' '));
      };
      for (const r of rules) {
        const seen = new Set<string>();
        const keywords = r.keywords.filter((k) => !seen.has(k) && seen.add(k) && hit(r, k));
        if (keywords.length > 0 && !r.excludeKeywords.some((k) => hit(r, k))) found.set(r.monitorId, keywords);
      }
      return found;
    };
    for (let i = 0; i < 300; i++) {
      const text = word(5 + Math.floor(random() * 30));
      expect(index.match(text), text).toEqual(expected(text));
    }
  });
});
