/**
 * Query matching, the one rule for monitors and one-off scrapes alike, so the same query finds the
 * same things in the same post or comment wherever it is asked. One Aho-Corasick automaton over every
 * distinct term of every rule (a monitor's, or a scrape's one rule), run once over an item's title,
 * body and flair together, so the cost of matching one item grows with the item's length and the hits
 * in it, not with rules × terms. Only the rules with a hit are evaluated: a query is anchored (see
 * query.parse.ts), so one with no hit is false. The automaton is automaton.ts's: it reports every
 * occurrence with its position, which `word` mode needs for its boundary checks and which tells the
 * part of the item a hit is in.
 */
import { Automaton } from './automaton.ts';
import { keywordsQuery, type QueryNode, type TextField } from './query.ts';
import { compileQuery } from './query.eval.ts';

/** `phrase`: a term anywhere, inside words too; `word`: a match may not cut a word. */
export type MatchMode = 'phrase' | 'word';

export interface QueryRule {
  /** Whose rule it is: a monitor's id, or any name a caller with a single rule gives it. */
  monitorId: string;
  /** A query parseQuery accepted (or keywordsQuery / andQueries made): anchored, so no hit means no match. */
  query: QueryNode;
  mode: MatchMode;
}

/** A post or comment as matched. A comment's `title` is its post's, read by `title:` terms only. */
export interface MatchItem {
  type: 'post' | 'comment';
  title: string;
  body: string;
  author: string;
  /** A post's flair text; none is the empty flair, which no `flair:` term matches. */
  flair?: string;
}

export interface MatchIndex {
  /**
   * monitorId → the terms the rule asks for (under no NOT) found in the item, where the query looks
   * for them, in query order and the rule's spelling, terms that fold alike once (the first found);
   * for every rule whose query is true for the item, and only those.
   */
  match(item: MatchItem): Map<string, string[]>;
}

/** One use of a pattern: by which rule (and whether in word mode), for which of its leaves, in which parts of a post or a comment. */
interface Use {
  rule: number;
  word: boolean;
  slot: number;
  parts: number;
  /** Whether a hit can make the rule true (query.eval.ts `lifts`): only such a hit puts the rule up for evaluation. */
  lifts: boolean;
}

interface Pattern {
  uses: Use[];
  /** Whether the pattern's first / last code point is a word character: only then can a match cut a word. */
  startsWord: boolean;
  endsWord: boolean;
}

const WORD_CHAR = /^[\p{L}\p{N}\p{M}_]$/u;
/** What toLowerCase leaves that still differs by case or position; every other match of FOLDED is whitespace. */
const FOLDS: Record<string, string> = { ß: 'ss', 'i\u0307': 'i', ς: 'σ' };
const FOLDED = /\s+|ß|i\u0307|ς/gu;

/**
 * Case folding applied to keywords and text alike; matching and boundaries work on its output, so a
 * change of length (ß → ss, İ → i) never shifts a position. Lower case, then: ß (and ẞ, which lowers
 * to it) becomes "ss" as in STRASSE, "i̇" (what İ lowers to) becomes "i", the final sigma "ς" becomes
 * "σ" so a word's last letter matches inside a longer word, and every run of whitespace becomes one
 * space, so a keyword "foo bar" matches "Foo\n  bar".
 */
function foldForMatching(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(FOLDED, (found) => FOLDS[found] ?? ' ');
}

function isWordCodePoint(codePoint: number): boolean {
  if (codePoint < 0x80) {
    return (codePoint >= 0x61 && codePoint <= 0x7a) || (codePoint >= 0x30 && codePoint <= 0x39) || codePoint === 0x5f || (codePoint >= 0x41 && codePoint <= 0x5a);
  }
  return WORD_CHAR.test(String.fromCodePoint(codePoint));
}

/** The code point that ends just before `index` (a surrogate pair read whole), or -1 at the start. */
function codePointBefore(text: string, index: number): number {
  if (index <= 0) return -1;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}

const codePointAt = (text: string, index: number) => (index < text.length ? text.codePointAt(index)! : -1);

/** The parts of an item, as bits; a use's `parts` has a post's in the low bits and a comment's shifted by COMMENT. */
const TITLE = 1;
const BODY = 2;
const FLAIR = 4;
const COMMENT = 3;

/** Where a term with this field is looked for: unscoped, a post's title and body but a comment's body only (its title is its post's). */
function partsOf(field: TextField | null): number {
  if (field === null) return TITLE | BODY | (BODY << COMMENT);
  const part = field === 'title' ? TITLE : field === 'body' ? BODY : FLAIR;
  return part | (part << COMMENT);
}

export function buildMatchIndex(rules: QueryRule[]): MatchIndex {
  const patterns = new Map<string, Pattern>();
  const authors = new Map<string, Use[]>();
  // A comment's title and a flair are folded and searched only when some rule looks at them.
  let readsCommentTitles = false;
  let readsFlairs = false;
  const compiled = rules.map(({ monitorId, query, mode }, rule) => {
    const { leaves, test } = compileQuery(query);
    /** The terms the query asks for, in its order, each with its folded form: what `match` reports. */
    const reported: { slot: number; text: string; folded: string }[] = [];
    leaves.forEach((leaf, slot) => {
      if (leaf.kind === 'author') {
        // Reddit usernames are ASCII and case-insensitive.
        const name = leaf.name.toLowerCase();
        const uses = authors.get(name) ?? [];
        uses.push({ rule, word: false, slot, parts: 0, lifts: leaf.lifts });
        authors.set(name, uses);
        return;
      }
      const folded = foldForMatching(leaf.text).trim();
      // The parser refuses blank terms; a blank one given to keywordsQuery can only never be found.
      if (folded === '') return;
      readsCommentTitles ||= leaf.field === 'title';
      readsFlairs ||= leaf.field === 'flair';
      let pattern = patterns.get(folded);
      if (!pattern) {
        pattern = {
          uses: [],
          startsWord: isWordCodePoint(codePointAt(folded, 0)),
          endsWord: isWordCodePoint(codePointBefore(folded, folded.length)),
        };
        patterns.set(folded, pattern);
      }
      pattern.uses.push({ rule, word: mode === 'word', slot, parts: partsOf(leaf.field), lifts: leaf.lifts });
      if (leaf.positive) reported.push({ slot, text: leaf.text, folded });
    });
    return { monitorId, test, found: new Uint8Array(leaves.length), reported };
  });
  const patternList = [...patterns.values()];
  const automaton = new Automaton([...patterns.keys()]);
  /** The rules with a hit in the item being matched; their `found` slots are cleared once it is evaluated. */
  const touched: number[] = [];
  const isTouched = new Uint8Array(rules.length);
  /**
   * Hits on terms a rule rules out, kept to be cleared after the item: `-author:AutoModerator` in
   * thousands of rules would otherwise put every one of them up for evaluation on each of its comments.
   */
  const ruledOut: Use[] = [];
  const mark = (use: Use) => {
    const { rule, slot } = use;
    compiled[rule]!.found[slot] = 1;
    if (!use.lifts) ruledOut.push(use);
    else if (isTouched[rule] === 0) {
      isTouched[rule] = 1;
      touched.push(rule);
    }
  };

  return {
    match(item) {
      const comment = item.type === 'comment';
      // Folded one by one and joined by NUL, which is no space and no word character: a phrase never
      // runs from one part into the next, and a part's edge is a word boundary.
      const title = comment && !readsCommentTitles ? '' : foldForMatching(item.title);
      const body = foldForMatching(item.body);
      const flair = readsFlairs && item.flair ? foldForMatching(item.flair) : '';
      const text = `${title}\u0000${body}\u0000${flair}`;
      const bodyStart = title.length + 1;
      const flairStart = bodyStart + body.length + 1;
      const shift = comment ? COMMENT : 0;
      automaton.forEachMatch(text, (index, begin, end) => {
        let part = FLAIR;
        let partEnd = text.length;
        if (begin < bodyStart) (part = TITLE), (partEnd = bodyStart - 1);
        else if (begin < flairStart) (part = BODY), (partEnd = flairStart - 1);
        // Only a term with a NUL in it (which the API refuses) could run past its part's end.
        if (end > partEnd) return;
        const pattern = patternList[index]!;
        // A word-mode match may not cut a word: no word character on both sides of either edge.
        const onBoundaries =
          !(pattern.startsWord && isWordCodePoint(codePointBefore(text, begin))) &&
          !(pattern.endsWord && isWordCodePoint(codePointAt(text, end)));
        for (const use of pattern.uses) {
          if ((use.parts & (part << shift)) === 0 || (use.word && !onBoundaries)) continue;
          mark(use);
        }
      });
      if (authors.size > 0) authors.get(item.author.toLowerCase())?.forEach(mark);
      const result = new Map<string, string[]>();
      for (const index of touched) {
        const { monitorId, test, found, reported } = compiled[index]!;
        if (test(found, item.type)) {
          // Terms that fold alike are one term, in the spelling of the first of them found.
          const folds: string[] = [];
          const terms: string[] = [];
          for (const { slot, text, folded } of reported) {
            if (found[slot] === 0 || folds.includes(folded)) continue;
            folds.push(folded);
            terms.push(text);
          }
          result.set(monitorId, terms);
        }
        found.fill(0);
        isTouched[index] = 0;
      }
      touched.length = 0;
      for (const { rule, slot } of ruledOut) compiled[rule]!.found[slot] = 0;
      ruledOut.length = 0;
      return result;
    },
  };
}
