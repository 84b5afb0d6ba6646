/**
 * The query parser: recursive descent over the query's code points (positions in errors count code
 * points, as people and the length limit do), refusing in one pass what is malformed or over a limit,
 * then refusing a query that is not anchored. See docs/api/queries.md for the grammar.
 */
import { closestName } from '../text.ts';
import { and, FIELD_LIKE, FIELD_NAMES, not, or, QUERY_LIMITS, QuerySyntaxError, term, type QueryNode, type TextField } from './query.ast.ts';

const TERM_START = 'a word, a phrase or "("';
const isSpace = (c: string | undefined) => c !== undefined && /^\s$/u.test(c);
/** Letters, digits, "_" and "-", as Reddit allows them; a "u/" or "/u/" before the name is dropped. */
const USERNAME = /^(?:\/?u\/)?([A-Za-z0-9_-]{1,20})$/;

/** The field names as a list in words, for the refusal of one that is not among them. */
const FIELD_LIST = 'title:, body:, flair:, author: and type:';

export interface ParseOptions {
  /**
   * What a word that reads as an unknown field is. "refuse" (a query given now): an error naming the
   * fields, since `titel:foo` would otherwise look for the word `titel:foo` and find nothing. "word":
   * a plain word, as it was before that rule, for a query stored then and parsed again to be run.
   */
  unknownFields?: 'refuse' | 'word';
}

/** Throws a QuerySyntaxError for the first problem found: syntax, a limit, or a query that is not anchored. */
export function parseQuery(text: string, options: ParseOptions = {}): QueryNode {
  const chars = [...text];
  if (chars.length > QUERY_LIMITS.length) {
    throw new QuerySyntaxError(QUERY_LIMITS.length + 1, 'at most 1,000 characters', 'the query is longer than 1,000 characters');
  }
  if (text.trim() === '') throw new QuerySyntaxError(1, 'a word or phrase', 'the query is blank: add a word or phrase it must contain');
  // The matcher joins an item's title, body and flair with NUL, so a term with one could span two of them.
  const nul = chars.indexOf('\u0000');
  if (nul >= 0) throw new QuerySyntaxError(nul + 1, 'a character other than NUL (U+0000)', 'the NUL character (U+0000) cannot be searched for');
  const node = new Parser(chars, options.unknownFields ?? 'refuse').query();
  if (valueWithoutWords(node) !== false) {
    throw new QuerySyntaxError(
      1,
      'a word or phrase it must contain',
      'the query can match a post or comment that contains none of its words: add a word or phrase it must contain',
    );
  }
  return node;
}

/**
 * What the query is worth on an item containing none of its words, phrases, authors or flairs, in
 * Kleene's three values (null: unknown, as a `type:` leaf is). Only a query that is then surely false
 * is anchored: one that matches nothing without a hit, which is what lets the index skip every rule
 * with no hit in an item, and a Reddit search look only for the query's words.
 */
function valueWithoutWords(node: QueryNode): boolean | null {
  switch (node.kind) {
    case 'term':
    case 'author':
      return false;
    case 'type':
      return null;
    case 'not': {
      const value = valueWithoutWords(node.node);
      return value === null ? null : !value;
    }
    case 'and':
    case 'or': {
      // `and` is decided by a false node, `or` by a true one; otherwise an unknown node leaves it unknown.
      const decisive = node.kind === 'or';
      let result: boolean | null = !decisive;
      for (const child of node.nodes) {
        const value = valueWithoutWords(child);
        if (value === decisive) return decisive;
        if (value === null) result = null;
      }
      return result;
    }
  }
}

class Parser {
  private at = 0;
  private leaves = 0;

  constructor(
    private readonly chars: string[],
    private readonly unknownFields: 'refuse' | 'word',
  ) {}

  query(): QueryNode {
    const node = this.disjunction(null, 0);
    // A disjunction stops only at the end or at a ")" that no group opened.
    if (this.at < this.chars.length) throw new QuerySyntaxError(this.at + 1, 'a "(" before it', '")" has no "(" to close');
    return node;
  }

  /** Conjunctions joined by OR, which binds looser than AND. Stops at the end, or at ")" (spaces skipped). */
  private disjunction(field: TextField | null, depth: number): QueryNode {
    const nodes = [this.conjunction(field, depth, null)];
    while (this.nextWordIs('OR')) {
      this.at += 2;
      nodes.push(this.conjunction(field, depth, 'OR'));
    }
    return or(nodes);
  }

  /** Unary terms side by side or joined by AND; `after` names what came just before, for errors. */
  private conjunction(field: TextField | null, depth: number, after: string | null): QueryNode {
    const nodes = [this.unary(field, depth, after)];
    for (;;) {
      this.skipSpaces();
      const c = this.chars[this.at];
      if (c === undefined || c === ')' || this.nextWordIs('OR')) return and(nodes);
      if (this.nextWordIs('AND')) {
        this.at += 3;
        nodes.push(this.unary(field, depth, 'AND'));
      } else nodes.push(this.unary(field, depth, null));
    }
  }

  private unary(field: TextField | null, depth: number, after: string | null): QueryNode {
    this.skipSpaces();
    const start = this.at;
    const c = this.chars[start];
    const word = this.wordAt(start);
    if (word === 'NOT') {
      this.at += 3;
      return not(this.unary(field, depth, 'NOT'));
    }
    if (c === '-') {
      // "-" negates what follows it directly; inside a word ("e-mail") it is part of the word.
      const next = this.chars[start + 1];
      if (next === undefined || next === ')' || isSpace(next)) throw this.expectedTerm(start + 1, '"-"');
      this.at++;
      return not(this.unary(field, depth, '"-"'));
    }
    if (c === ')' && after === null) throw new QuerySyntaxError(start + 1, 'a "(" before it', '")" has no "(" to close');
    if (c === undefined || c === ')' || word === 'OR' || word === 'AND') {
      if (after !== null) throw this.expectedTerm(start, after);
      throw new QuerySyntaxError(start + 1, TERM_START, `expected ${TERM_START} before ${word}`);
    }
    return this.primary(field, depth);
  }

  /** A group, a phrase, a field filter or a word: the one term starting here. */
  private primary(field: TextField | null, depth: number): QueryNode {
    const start = this.at;
    const c = this.chars[start];
    if (c === '(') return this.group(field, depth);
    if (c === '"') return this.leaf(start, term(this.phrase(), field));
    const end = this.wordEnd(start);
    const colon = start + this.chars.slice(start, end).indexOf(':');
    const name = colon > start ? this.chars.slice(start, colon).join('').toLowerCase() : '';
    if (FIELD_NAMES.has(name)) {
      if (field !== null) {
        throw new QuerySyntaxError(start + 1, `${TERM_START} without a field`, `"${name}:" inside "${field}:": a field cannot be used inside another`);
      }
      this.at = colon + 1;
      return this.fieldValue(name, depth, start);
    }
    // What follows the colon directly counts, a phrase or a group too: `titel:"a b"`, `titel:(a OR b)`.
    if (name !== '' && this.unknownFields === 'refuse' && FIELD_LIKE.test(this.chars.slice(start, colon + 2).join(''))) {
      throw this.unknownField(start, colon, end);
    }
    this.at = end;
    return this.leaf(start, term(this.checkedTerm(this.chars.slice(start, end).join(''), start, 'word'), field));
  }

  /** A word that reads as a field the grammar does not know: the fields there are, the closest first, and how to search for the word itself. */
  private unknownField(start: number, colon: number, end: number): QuerySyntaxError {
    const typed = this.chars.slice(start, colon).join('');
    const word = this.chars.slice(start, end).join('');
    const guess = closestName(typed, [...FIELD_NAMES]);
    return new QuerySyntaxError(
      start + 1,
      `one of the fields ${FIELD_LIST}`,
      `"${typed}:" is not a field${guess ? ` (did you mean ${guess}:?)` : ''}: the fields are ${FIELD_LIST}; ` +
        `to look for the text itself, put it in quotes: "${word.replace(/"/g, '')}"`,
    );
  }

  /** What follows "name:" directly (no space between): a username, post or comment, or a text term. */
  private fieldValue(name: string, depth: number, fieldStart: number): QueryNode {
    const start = this.at;
    const c = this.chars[start];
    const end = this.wordEnd(start);
    const value = this.chars.slice(start, end).join('');
    if (name === 'author') {
      const username = USERNAME.exec(value)?.[1];
      if (username === undefined) throw new QuerySyntaxError(start + 1, 'a Reddit username', 'author: takes a Reddit username');
      this.at = end;
      return this.leaf(fieldStart, { kind: 'author', name: username });
    }
    if (name === 'type') {
      const type = value.toLowerCase();
      if (type !== 'post' && type !== 'comment') throw new QuerySyntaxError(start + 1, 'post or comment', 'type: takes post or comment');
      this.at = end;
      return this.leaf(fieldStart, { kind: 'type', value: type });
    }
    if (c === '-') {
      throw new QuerySyntaxError(start + 1, TERM_START, `put "-" before the field to leave a word out: -${name}:word`);
    }
    if (value === '' ? c !== '(' && c !== '"' : value === 'AND' || value === 'OR' || value === 'NOT') {
      throw this.expectedTerm(start, `"${name}:"`);
    }
    return this.primary(name as TextField, depth);
  }

  private group(field: TextField | null, depth: number): QueryNode {
    const open = this.at;
    if (depth >= QUERY_LIMITS.depth) {
      throw new QuerySyntaxError(open + 1, 'at most 10 levels of parentheses', 'parentheses are nested more than 10 deep');
    }
    this.at++;
    this.skipSpaces();
    if (this.chars[this.at] === ')') throw new QuerySyntaxError(open + 1, 'a word or phrase', 'empty parentheses: put a word or phrase inside');
    if (this.at === this.chars.length) throw new QuerySyntaxError(open + 1, '")"', '"(" is never closed');
    const node = this.disjunction(field, depth + 1);
    if (this.chars[this.at] !== ')') throw new QuerySyntaxError(open + 1, '")"', '"(" is never closed');
    this.at++;
    return node;
  }

  /** The phrase's text, trimmed: inside quotes `\"` is a quote and `\\` a backslash; any other `\` is itself. */
  private phrase(): string {
    const open = this.at++;
    let text = '';
    for (;;) {
      const c = this.chars[this.at++];
      if (c === undefined) throw new QuerySyntaxError(open + 1, 'a closing quote (")', 'the quote is never closed');
      if (c === '"') break;
      const next = this.chars[this.at];
      if (c === '\\' && (next === '"' || next === '\\')) {
        text += next;
        this.at++;
      } else text += c;
    }
    return this.checkedTerm(text.trim(), open, 'phrase');
  }

  private checkedTerm(text: string, start: number, what: 'word' | 'phrase'): string {
    const length = [...text].length;
    if (length === 0) throw new QuerySyntaxError(start + 1, 'a word or phrase', 'empty phrase: put a word between the quotes');
    if (length > QUERY_LIMITS.termLength) throw new QuerySyntaxError(start + 1, 'at most 100 characters', `a ${what} is longer than 100 characters`);
    return text;
  }

  /** Counts words, phrases and filters as they are read, so the error points at the first one too many. */
  private leaf(start: number, node: QueryNode): QueryNode {
    if (++this.leaves > QUERY_LIMITS.terms) {
      throw new QuerySyntaxError(start + 1, 'at most 100 words, phrases and filters', 'the query has more than 100 words, phrases and filters');
    }
    return node;
  }

  /** `at` is where the term should have begun (0-based); past the end when the query stopped short. */
  private expectedTerm(at: number, after: string): QuerySyntaxError {
    return new QuerySyntaxError(at + 1, TERM_START, `expected ${TERM_START} after ${after}`);
  }

  private nextWordIs(word: string): boolean {
    this.skipSpaces();
    return this.wordAt(this.at) === word;
  }

  private skipSpaces(): void {
    while (isSpace(this.chars[this.at])) this.at++;
  }

  /** A word runs to the next space, parenthesis or quote. */
  private wordEnd(start: number): number {
    let end = start;
    for (let c = this.chars[end]; c !== undefined && c !== '(' && c !== ')' && c !== '"' && !isSpace(c); c = this.chars[++end]);
    return end;
  }

  private wordAt(start: number): string {
    return this.chars.slice(start, this.wordEnd(start)).join('');
  }
}
