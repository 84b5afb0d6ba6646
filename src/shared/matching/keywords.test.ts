import { describe, expect, it } from 'vitest';
import { buildMatchIndex, type MatchItem, type MatchMode } from './keywords.ts';
import { keywordsQuery, parseQuery } from './query.ts';

/** A monitor's keywords and excludes, matched as the query they are shorthand for (keywordsQuery). */
interface MatchRule {
  monitorId: string;
  keywords: string[];
  excludeKeywords: string[];
  mode: MatchMode;
}

const rule = (monitorId: string, keywords: string[], mode: MatchMode = 'phrase', excludeKeywords: string[] = []): MatchRule => ({
  monitorId,
  keywords,
  excludeKeywords,
  mode,
});

/** An index of keyword rules over plain texts: each text is matched as a comment's own text, which is what a keyword reads. */
function buildKeywordIndex(rules: MatchRule[]) {
  const index = buildMatchIndex(rules.map((r) => ({ monitorId: r.monitorId, query: keywordsQuery(r.keywords, r.excludeKeywords), mode: r.mode })));
  return { match: (text: string) => index.match({ type: 'comment', title: '', body: text, author: '' }) };
}

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

const post = (title: string, body: string, more: Partial<MatchItem> = {}): MatchItem => ({ type: 'post', title, body, author: 'someone', ...more });
/** A comment's `title` is the title of the post it is under. */
const comment = (body: string, postTitle = '', more: Partial<MatchItem> = {}): MatchItem => ({ type: 'comment', title: postTitle, body, author: 'someone', ...more });
const matchQuery = (query: string, item: MatchItem, mode: MatchRule['mode'] = 'phrase') =>
  buildMatchIndex([{ monitorId: 'm', query: parseQuery(query), mode }]).match(item).get('m') ?? null;

describe('query matching for monitors and scrapes', () => {
  it('an unscoped term reads a post\'s title and body, but only a comment\'s own body, not its post\'s title', () => {
    expect(matchQuery('api', post('API news', ''))).toEqual(['api']);
    expect(matchQuery('api', post('news', 'about the api'))).toEqual(['api']);
    expect(matchQuery('api', comment('no mention', 'API news'))).toBeNull();
    expect(matchQuery('api', comment('the api, again', 'API news'))).toEqual(['api']);
  });

  it('title: reads the title only (a comment\'s post title), body: the body only', () => {
    expect(matchQuery('title:api', post('API news', 'x'))).toEqual(['api']);
    expect(matchQuery('title:api', post('news', 'the api'))).toBeNull();
    expect(matchQuery('title:api', comment('nothing', 'API news'))).toEqual(['api']);
    expect(matchQuery('body:api', post('API news', 'x'))).toBeNull();
    expect(matchQuery('body:api', comment('the api', 'news'))).toEqual(['api']);
    expect(matchQuery('title:(api OR sdk) body:"node js"', post('The SDK', 'for node  JS'))).toEqual(['sdk', 'node js']);
  });

  it('flair: reads the flair only, an item without one matching no flair: term', () => {
    expect(matchQuery('flair:question', post('x', 'y', { flair: 'Question' }))).toEqual(['question']);
    expect(matchQuery('flair:question', post('question', 'question'))).toBeNull();
    expect(matchQuery('question', post('x', 'y', { flair: 'Question' }))).toBeNull();
    expect(matchQuery('api -flair:meta', post('api', '', { flair: 'Meta' }))).toBeNull();
    expect(matchQuery('api -flair:meta', post('api', ''))).toEqual(['api']);
  });

  it('author: matches the whole username whatever its case, and reports no terms of its own', () => {
    expect(matchQuery('author:Spez', post('x', 'y', { author: 'spez' }))).toEqual([]);
    expect(matchQuery('author:spez', post('x', 'y', { author: 'spez2' }))).toBeNull();
    expect(matchQuery('api author:spez', comment('the api', '', { author: 'SPEZ' }))).toEqual(['api']);
    expect(matchQuery('api -author:automoderator', comment('the api', '', { author: 'AutoModerator' }))).toBeNull();
  });

  it('type: keeps a rule to posts or to comments', () => {
    expect(matchQuery('api type:post', post('api', ''))).toEqual(['api']);
    expect(matchQuery('api type:post', comment('api'))).toBeNull();
    expect(matchQuery('api -type:post', comment('api'))).toEqual(['api']);
    expect(matchQuery('title:api type:comment OR body:sdk', post('api', 'x'))).toBeNull();
  });

  it('NOT inside groups and fields leaves out only what it covers', () => {
    expect(matchQuery('api -(job hiring)', post('api job', ''))).toEqual(['api']);
    expect(matchQuery('api -(job hiring)', post('api job', 'hiring'))).toBeNull();
    expect(matchQuery('title:(api -rust)', post('api', 'rust'))).toEqual(['api']);
    expect(matchQuery('title:(api -rust)', post('api rust', ''))).toBeNull();
    expect(matchQuery('(api OR sdk) -(rust -go)', post('sdk rust go', ''))).toEqual(['sdk']);
  });

  it('terms follow the rule\'s mode: phrase inside words, word on whole words, for excludes too', () => {
    expect(matchQuery('title:api', post('rapid', ''), 'phrase')).toEqual(['api']);
    expect(matchQuery('title:api', post('rapid', ''), 'word')).toBeNull();
    expect(matchQuery('"node js" -hire', post('Node\nJS', 'we hired'), 'word')).toEqual(['node js']);
    expect(matchQuery('"node js" -hire', post('Node\nJS', 'we hired'), 'phrase')).toBeNull();
    expect(matchQuery('straße', post('STRASSE', ''), 'word')).toEqual(['straße']);
  });

  it('a phrase never runs from one part into the next, and a part\'s edge is a word boundary', () => {
    expect(matchQuery('"news the"', post('API news', 'the api'))).toBeNull();
    expect(matchQuery('"api meta"', post('x', 'about the api', { flair: 'Meta' }))).toBeNull();
    expect(matchQuery('title:news body:the', post('API news', 'the api'), 'word')).toEqual(['news', 'the']);
  });

  it('reports the terms asked for that were found: query order, the rule\'s spelling, alike terms once, none under NOT', () => {
    expect(matchQuery('(Zebra OR apple OR mango) -kiwi', post('mango and ZEBRA', ''))).toEqual(['Zebra', 'mango']);
    expect(matchQuery('API (api OR title:Api OR straße) STRASSE', post('api', 'strasse'))).toEqual(['API', 'straße']);
    // Found only where the query does not look: not reported; of alike terms, the first found is.
    expect(matchQuery('sdk OR title:api', post('x', 'api sdk'))).toEqual(['sdk']);
    expect(matchQuery('title:API OR Api', post('x', 'api'))).toEqual(['Api']);
  });

  it('an item can match several monitors, each with its own query and mode; the others are absent', () => {
    const index = buildMatchIndex([
      { monitorId: 'a', query: parseQuery('api'), mode: 'phrase' },
      { monitorId: 'b', query: parseQuery('title:api sdk'), mode: 'word' },
      { monitorId: 'c', query: parseQuery('api -rapid'), mode: 'phrase' },
      { monitorId: 'd', query: parseQuery('author:bob'), mode: 'word' },
      { monitorId: 'e', query: keywordsQuery(['rust', 'API'], ['spam']), mode: 'word' },
    ]);
    expect(index.match(post('The API', 'and an SDK', { author: 'Bob' }))).toEqual(
      new Map([
        ['a', ['api']],
        ['b', ['api', 'sdk']],
        ['c', ['api']],
        ['d', []],
        ['e', ['API']],
      ]),
    );
    // The comment's post title has "API" for title:, its own text "rapid" for a, and for c's exclude.
    expect(index.match(comment('rapid sdk', 'API'))).toEqual(
      new Map([
        ['a', ['api']],
        ['b', ['api', 'sdk']],
      ]),
    );
  });

});
