import { describe, expect, it } from 'vitest';
import { andQueries, combinedQuery, keywordsQuery, parseQuery, printQuery, QuerySyntaxError, readsTitles, searchTerms, type QueryNode, type TextField } from './query.ts';

// Plain objects, not the parser's constructors, so flattening and simplifying are checked too.
const w = (text: string, field: TextField | null = null): QueryNode => ({ kind: 'term', text, field });
const all = (...nodes: QueryNode[]): QueryNode => ({ kind: 'and', nodes });
const any = (...nodes: QueryNode[]): QueryNode => ({ kind: 'or', nodes });
const no = (node: QueryNode): QueryNode => ({ kind: 'not', node });
const author = (name: string): QueryNode => ({ kind: 'author', name });
const type = (value: 'post' | 'comment'): QueryNode => ({ kind: 'type', value });

const parsed: { meaning: string; query: string; ast: QueryNode }[] = [
  { meaning: 'one word', query: 'api', ast: w('api') },
  { meaning: 'both words (implicit AND)', query: 'reddit  api', ast: all(w('reddit'), w('api')) },
  { meaning: 'both words, spaces around them being nothing', query: ' reddit api  ', ast: all(w('reddit'), w('api')) },
  { meaning: 'both words, AND being optional', query: 'reddit AND api', ast: all(w('reddit'), w('api')) },
  { meaning: 'a phrase, its spaces trimmed', query: '" machine learning "', ast: w('machine learning') },
  { meaning: 'a quoted single word as that word', query: '"api"', ast: w('api') },
  { meaning: 'escaped quotes and backslashes inside a phrase', query: String.raw`"say \"hi\" \\o/"`, ast: w('say "hi" \\o/') },
  { meaning: 'a backslash before any other character as itself', query: String.raw`"C:\Users"`, ast: w('C:\\Users') },
  { meaning: 'words glued to phrases and groups as separate terms', query: 'a"b c"(d)', ast: all(w('a'), w('b c'), w('d')) },
  { meaning: 'OR looser than AND', query: 'a b OR c d', ast: any(all(w('a'), w('b')), all(w('c'), w('d'))) },
  { meaning: 'a chain of ORs as one OR', query: 'a OR b OR (c OR d)', ast: any(w('a'), w('b'), w('c'), w('d')) },
  { meaning: 'parentheses before AND', query: '(a OR b) c', ast: all(any(w('a'), w('b')), w('c')) },
  { meaning: 'nested groups flattened where they change nothing', query: '((a b) (c))', ast: all(w('a'), w('b'), w('c')) },
  { meaning: '"-" and NOT as negation', query: 'a -b NOT c', ast: all(w('a'), no(w('b')), no(w('c'))) },
  { meaning: 'a negated phrase and a negated group', query: 'a -"b c" -(d OR e)', ast: all(w('a'), no(w('b c')), no(any(w('d'), w('e')))) },
  { meaning: 'NOT NOT as no negation', query: 'NOT NOT a', ast: w('a') },
  { meaning: '-(-a) as a', query: 'b -(-a)', ast: all(w('b'), w('a')) },
  { meaning: 'a double negation of a group as the group, flattened', query: 'x --(a b)', ast: all(w('x'), w('a'), w('b')) },
  { meaning: 'a "-" inside a word as part of it', query: 'e-mail co-op-', ast: all(w('e-mail'), w('co-op-')) },
  { meaning: 'lower-case or, and, not as plain words', query: 'this or that and not', ast: all(w('this'), w('or'), w('that'), w('and'), w('not')) },
  { meaning: 'OR glued to a parenthesis as the operator', query: 'a OR(b)', ast: any(w('a'), w('b')) },
  { meaning: 'a word that starts with OR as a word', query: 'ORANGE NOTE', ast: all(w('ORANGE'), w('NOTE')) },
  { meaning: 'colons that are not a field as part of the word', query: 'http://x c: :x a:b re: std::vector 10:30 C:\\x', ast: all(w('http://x'), w('c:'), w(':x'), w('a:b'), w('re:'), w('std::vector'), w('10:30'), w('C:\\x')) },
  { meaning: 'a quoted word that reads as a field as that text', query: '"titel:foo" "note:this"', ast: all(w('titel:foo'), w('note:this')) },
  { meaning: 'a field on a word, a phrase and a group', query: 'title:a body:"b c" flair:(d OR e)', ast: all(w('a', 'title'), w('b c', 'body'), any(w('d', 'flair'), w('e', 'flair'))) },
  { meaning: 'a field on every term of its group, negations too', query: 'title:(a (b OR c) -d)', ast: all(w('a', 'title'), any(w('b', 'title'), w('c', 'title')), no(w('d', 'title'))) },
  { meaning: 'field names whatever their case', query: 'Title:a BODY:b', ast: all(w('a', 'title'), w('b', 'body')) },
  { meaning: 'a colon in a field\'s word as part of the word', query: 'title:http://x', ast: w('http://x', 'title') },
  { meaning: 'author: with or without u/, and type: in any case', query: 'author:Spez OR author:u/kn0thing type:Post', ast: any(author('Spez'), all(author('kn0thing'), type('post'))) },
  { meaning: 'a negated field', query: 'a -title:b -author:bob -type:comment', ast: all(w('a'), no(w('b', 'title')), no(author('bob')), no(type('comment'))) },
  { meaning: 'accents, ß, emoji and CJK as word characters', query: 'café Straße 🚀 東京 "東京 タワー"', ast: all(w('café'), w('Straße'), w('🚀'), w('東京'), w('東京 タワー')) },
  { meaning: 'any whitespace as a separator', query: 'a\tb\nc\u00a0d', ast: all(w('a'), w('b'), w('c'), w('d')) },
  { meaning: 'an author filter alone (anchored by the author)', query: 'author:spez', ast: author('spez') },
  { meaning: 'a flair alone (anchored by the flair)', query: 'flair:Question', ast: w('Question', 'flair') },
];

const at = (text: string, part: string) => [...text.slice(0, text.indexOf(part))].length + 1;
const longQuery = 'ab '.repeat(333) + 'cd';
const manyTerms = Array.from({ length: 101 }, (_, i) => `w${i}`).join(' ');
const refused: { problem: string; query: string; position: number; message: string }[] = [
  { problem: 'a blank query', query: '  \n ', position: 1, message: 'the query is blank: add a word or phrase it must contain' },
  { problem: 'empty parentheses', query: 'a () b', position: 3, message: 'empty parentheses: put a word or phrase inside' },
  { problem: 'an unclosed quote, where it opened', query: 'abcd "x y', position: 6, message: 'the quote is never closed' },
  { problem: 'an unclosed parenthesis, where it opened', query: 'a (b OR (c d)', position: 3, message: '"(" is never closed' },
  { problem: 'a stray ")" at the start', query: ') a', position: 1, message: '")" has no "(" to close' },
  { problem: 'a stray ")" later', query: 'a b) c', position: 4, message: '")" has no "(" to close' },
  { problem: 'a dangling OR', query: 'a OR', position: 5, message: 'expected a word, a phrase or "(" after OR' },
  { problem: 'an OR before ")"', query: '(a OR ) b', position: 7, message: 'expected a word, a phrase or "(" after OR' },
  { problem: 'two operators in a row', query: 'title:x OR OR b', position: 12, message: 'expected a word, a phrase or "(" after OR' },
  { problem: 'an OR first', query: 'OR a', position: 1, message: 'expected a word, a phrase or "(" before OR' },
  { problem: 'an AND first in a group', query: 'x (AND a)', position: 4, message: 'expected a word, a phrase or "(" before AND' },
  { problem: 'a dangling AND', query: 'a AND ', position: 7, message: 'expected a word, a phrase or "(" after AND' },
  { problem: 'a dangling NOT', query: 'a NOT', position: 6, message: 'expected a word, a phrase or "(" after NOT' },
  { problem: 'a "-" followed by a space', query: 'a - b', position: 4, message: 'expected a word, a phrase or "(" after "-"' },
  { problem: 'a field without a value', query: 'title:', position: 7, message: 'expected a word, a phrase or "(" after "title:"' },
  { problem: 'a field followed by a space', query: 'a body: b', position: 8, message: 'expected a word, a phrase or "(" after "body:"' },
  { problem: 'a field whose value is an operator', query: 'flair:OR a', position: 7, message: 'expected a word, a phrase or "(" after "flair:"' },
  { problem: 'a "-" after a field instead of before it', query: 'a title:-b', position: 9, message: 'put "-" before the field to leave a word out: -title:word' },
  { problem: 'a field inside a field', query: 'title:(a body:b)', position: 10, message: '"body:" inside "title:": a field cannot be used inside another' },
  { problem: 'author: inside a field', query: 'title:(a author:bob)', position: 10, message: '"author:" inside "title:": a field cannot be used inside another' },
  { problem: 'a type other than post or comment', query: 'a type:posts', position: 8, message: 'type: takes post or comment' },
  { problem: 'author: with a phrase', query: 'a author:"spez"', position: 10, message: 'author: takes a Reddit username' },
  { problem: 'author: with a group', query: 'a author:(spez)', position: 10, message: 'author: takes a Reddit username' },
  { problem: 'author: with what no username has', query: 'a author:sp.ez', position: 10, message: 'author: takes a Reddit username' },
  { problem: 'an empty phrase', query: 'a ""', position: 3, message: 'empty phrase: put a word between the quotes' },
  { problem: 'a blank phrase', query: 'a "  "', position: 3, message: 'empty phrase: put a word between the quotes' },
  { problem: 'a query over 1,000 characters', query: longQuery, position: 1001, message: 'the query is longer than 1,000 characters' },
  { problem: 'a word over 100 characters', query: `a ${'é'.repeat(101)}`, position: 3, message: 'a word is longer than 100 characters' },
  { problem: 'a phrase over 100 characters', query: `a "${'b '.repeat(50)}c"`, position: 3, message: 'a phrase is longer than 100 characters' },
  { problem: 'over 100 terms', query: manyTerms, position: at(manyTerms, 'w100'), message: 'the query has more than 100 words, phrases and filters' },
  { problem: 'parentheses 11 deep', query: `a ${'('.repeat(11)}b${')'.repeat(11)}`, position: 13, message: 'parentheses are nested more than 10 deep' },
  { problem: 'the NUL character', query: 'a\u0000b', position: 2, message: 'the NUL character (U+0000) cannot be searched for' },
  {
    problem: 'a misspelt field',
    query: 'api titel:foo',
    position: 5,
    message: '"titel:" is not a field (did you mean title:?): the fields are title:, body:, flair:, author: and type:; to look for the text itself, put it in quotes: "titel:foo"',
  },
  {
    problem: 'an unknown field before a phrase',
    query: 'a note:"b c"',
    position: 3,
    message: '"note:" is not a field: the fields are title:, body:, flair:, author: and type:; to look for the text itself, put it in quotes: "note:"',
  },
  {
    problem: 'an unknown field in another language, before a group',
    query: 'Titel:(a OR b)',
    position: 1,
    message: '"Titel:" is not a field (did you mean title:?): the fields are title:, body:, flair:, author: and type:; to look for the text itself, put it in quotes: "Titel:"',
  },
];

const unanchored = ['-spam', 'NOT spam', 'type:comment', 'type:post -x', 'a OR -b', '-(a b)', 'a OR type:post', '(type:post OR type:comment) -x', '-author:bob'];

describe('the query grammar', () => {
  it.each(parsed)('reads $query as $meaning', ({ query, ast }) => {
    expect(parseQuery(query)).toEqual(ast);
  });

  it.each(refused)('refuses $problem, pointing at character $position', ({ query, position, message }) => {
    const error = (() => {
      try {
        parseQuery(query);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(QuerySyntaxError);
    expect(error).toMatchObject({ message: `at character ${position}: ${message}`, position });
  });

  it('counts positions in code points, so an emoji before an error counts once', () => {
    expect(() => parseQuery('🚀 a OR')).toThrow('at character 7: expected a word, a phrase or "(" after OR');
  });

  it('says what was expected apart from the message, for a client to show', () => {
    expect(() => parseQuery('title:')).toThrow(expect.objectContaining({ expected: 'a word, a phrase or "("' }));
    expect(() => parseQuery('a type:x')).toThrow(expect.objectContaining({ expected: 'post or comment' }));
  });

  it('accepts the limits themselves: 1,000 characters, 100 terms of 100 characters, 10 levels', () => {
    expect(() => parseQuery(`${'abcdefghi '.repeat(99)}abcdefghij`)).not.toThrow();
    expect(() => parseQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '))).not.toThrow();
    expect(() => parseQuery(`a ${'b'.repeat(100)} "${'c'.repeat(100)}"`)).not.toThrow();
    expect(() => parseQuery(`${'('.repeat(10)}a${')'.repeat(10)}`)).not.toThrow();
  });

  it.each(unanchored)('refuses %s, which can match an item without any of its words', (query) => {
    expect(() => parseQuery(query)).toThrow('at character 1: the query can match a post or comment that contains none of its words: add a word or phrase it must contain');
  });

  it.each(['a -b', 'author:spez -b', 'a (type:post OR b)', 'type:post a', '-(-a)', '-(-a OR type:post) b', 'flair:Question type:post'])(
    'accepts %s, which is false on an item without its words',
    (query) => expect(() => parseQuery(query)).not.toThrow(),
  );
});

describe('printing a query', () => {
  it.each([
    ['a AND b', 'a b'],
    ['NOT a b  OR  c', '-a b OR c'],
    ['(a OR b) (c OR d)', '(a OR b) (c OR d)'],
    ['x -(a b)', 'x -(a b)'],
    ['Title:a TITLE:b OR c', 'title:(a b) OR c'],
    ['x title:(a OR b)', 'x title:(a OR b)'],
    ['x -title:(a OR b)', 'x -title:(a OR b)'],
    ['x title:a -title:b body:c', 'x title:(a -b) body:c'],
    ['"OR" "-a" "title:x" "a b" "a(b" \'x\'', '"OR" "-a" "title:x" "a b" "a(b" \'x\''],
    [String.raw`"a\"b" "c\\" "d\e" "f\\ g"`, String.raw`"a\"b" c\ d\e "f\ g"`],
    ['author:u/Spez type:Post', 'author:Spez type:post'],
    ['"note:this" "ab:(x" http://x', '"note:this" "ab:(x" http://x'],
  ])('prints %s as %s', (query, printed) => {
    expect(printQuery(parseQuery(query))).toBe(printed);
    expect(parseQuery(printed)).toEqual(parseQuery(query));
  });
});

describe('keywords as a query, and combining queries', () => {
  it('makes any keyword and none of the excludes, a single keyword needing no OR', () => {
    expect(keywordsQuery(['api', 'node js'], ['hiring', 'job'])).toEqual(all(any(w('api'), w('node js')), no(w('hiring')), no(w('job'))));
    expect(keywordsQuery(['api'], [])).toEqual(w('api'));
    expect(printQuery(keywordsQuery(['api', 'node js', 'OR'], ['-x']))).toBe('(api OR "node js" OR "OR") -"-x"');
  });

  it('needs a keyword: excludes alone would match everything else', () => {
    expect(() => keywordsQuery([], ['x'])).toThrow(RangeError);
  });

  it('ANDs two queries into one flat AND', () => {
    expect(andQueries(parseQuery('a b'), parseQuery('c -d'))).toEqual(all(w('a'), w('b'), w('c'), no(w('d'))));
    expect(andQueries(keywordsQuery(['a', 'b'], []), parseQuery('title:c'))).toEqual(all(any(w('a'), w('b')), w('c', 'title')));
  });
});

describe('a monitor\'s or scrape\'s whole rule', () => {
  it('is its keywords and excludes, its query, or both ANDed, keywords first', () => {
    expect(combinedQuery({ keywords: ['a', 'b'], excludes: ['x'], query: null })).toEqual(all(any(w('a'), w('b')), no(w('x'))));
    expect(combinedQuery({ keywords: [], excludes: [], query: 'title:c OR d' })).toEqual(any(w('c', 'title'), w('d')));
    expect(combinedQuery({ keywords: ['a'], excludes: ['x'], query: 'c d' })).toEqual(all(w('a'), no(w('x')), w('c'), w('d')));
  });

  it('keeps excludes given with a query and no keywords', () => {
    expect(combinedQuery({ keywords: [], excludes: ['x', 'y'], query: 'c OR d' })).toEqual(all(any(w('c'), w('d')), no(w('x')), no(w('y'))));
  });

  it('reads a word like note:this in a stored query as the word it was when it was stored', () => {
    expect(combinedQuery({ keywords: [], excludes: [], query: 'api note:this' })).toEqual(all(w('api'), w('note:this')));
  });

  it('throws on a stored query the grammar refuses, and on a rule with neither keywords nor query', () => {
    expect(() => combinedQuery({ keywords: ['a'], excludes: [], query: '-b' })).toThrow(QuerySyntaxError);
    expect(() => combinedQuery({ keywords: [], excludes: ['x'], query: null })).toThrow(RangeError);
  });
});

describe('the terms a search asks for', () => {
  it('lists the words and phrases under no NOT and outside flair:, in order, each once whatever its case', () => {
    expect(searchTerms(parseQuery('API (node OR "Node JS") -rust title:api -(a b) flair:Question author:bob type:post'))).toEqual([
      'API',
      'node',
      'Node JS',
    ]);
  });

  it('is empty for a query of authors and flairs alone', () => {
    expect(searchTerms(parseQuery('author:spez OR author:kn0thing'))).toEqual([]);
    expect(searchTerms(parseQuery('flair:Question author:spez'))).toEqual([]);
  });
});

describe('whether a rule reads titles', () => {
  it('is true for a title: term anywhere, under a NOT too, and false otherwise', () => {
    expect(readsTitles(parseQuery('kysely OR title:postgres'))).toBe(true);
    expect(readsTitles(parseQuery('kysely -title:spam'))).toBe(true);
    expect(readsTitles(parseQuery('body:kysely author:someone type:comment'))).toBe(false);
    expect(readsTitles(keywordsQuery(['title'], ['x']))).toBe(false);
  });
});
