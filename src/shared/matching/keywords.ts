/**
 * Keyword matching, the one rule for monitors and one-off scrapes alike, so the same keywords find
 * the same things in the same post or comment wherever they are asked. One Aho-Corasick automaton
 * over every distinct keyword and exclude of every rule (a monitor's, or a scrape's one rule), so
 * the cost of matching one item grows with the item's length and the hits in it, not with rules ×
 * keywords. The automaton is `@monyone/aho-corasick/fast` (a double array over UTF-16 code units
 * that reports every occurrence with its position, which `word` mode needs for its boundary checks).
 */
import { AhoCorasick } from '@monyone/aho-corasick/fast';

/** `phrase`: the keyword anywhere, inside words too; `word`: a match may not cut a word. */
export type MatchMode = 'phrase' | 'word';

export interface MatchRule {
  /** Whose rule it is: a monitor's id, or any name a caller with a single rule gives it. */
  monitorId: string;
  keywords: string[];
  excludeKeywords: string[];
  mode: MatchMode;
}

export interface KeywordIndex {
  /** monitorId → the rule's keywords found in `text`, in its order and spelling; rules with an exclude hit are absent. */
  match(text: string): Map<string, string[]>;
}

/** One use of a pattern: by which rule, and which of its keywords (or -1: one of its excludes). */
interface Use {
  rule: number;
  keyword: number;
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

/**
 * What is matched in a post or comment: a post's title and text, a comment's own text (not its post's
 * title). The title and text are joined by a character that is neither space nor part of a word, so a
 * phrase never runs from the end of the title into the text.
 */
export const matchedText = (item: { type: 'post' | 'comment'; title: string; body: string }) =>
  item.type === 'post' ? `${item.title}\u0000${item.body}` : item.body;

export function buildKeywordIndex(rules: MatchRule[]): KeywordIndex {
  const patterns = new Map<string, Pattern>();
  const use = (raw: string, rule: number, keyword: number) => {
    const folded = foldForMatching(raw).trim();
    // Keywords are never blank (the API refuses them); one that folds to nothing could only match everywhere.
    if (folded === '') return;
    let pattern = patterns.get(folded);
    if (!pattern) {
      pattern = {
        uses: [],
        startsWord: isWordCodePoint(codePointAt(folded, 0)),
        endsWord: isWordCodePoint(codePointBefore(folded, folded.length)),
      };
      patterns.set(folded, pattern);
    }
    // Keywords that differ only in case are one keyword: the rule's first spelling stands for it.
    if (!pattern.uses.some((u) => u.rule === rule && (u.keyword >= 0) === (keyword >= 0))) {
      pattern.uses.push({ rule, keyword });
    }
  };
  rules.forEach((rule, index) => {
    rule.keywords.forEach((keyword, position) => use(keyword, index, position));
    for (const exclude of rule.excludeKeywords) use(exclude, index, -1);
  });
  const automaton = new AhoCorasick([...patterns.keys()]);

  return {
    match(text) {
      const folded = foldForMatching(text);
      const found = new Map<number, boolean[]>();
      const excluded = new Set<number>();
      for (const { begin, end, keyword } of automaton.matchInText(folded)) {
        const pattern = patterns.get(keyword)!;
        // A word-mode match may not cut a word: no word character on both sides of either edge.
        const onBoundaries =
          !(pattern.startsWord && isWordCodePoint(codePointBefore(folded, begin))) &&
          !(pattern.endsWord && isWordCodePoint(codePointAt(folded, end)));
        for (const { rule, keyword: position } of pattern.uses) {
          if (!onBoundaries && rules[rule]!.mode === 'word') continue;
          if (position < 0) {
            excluded.add(rule);
            continue;
          }
          let hits = found.get(rule);
          if (!hits) found.set(rule, (hits = []));
          hits[position] = true;
        }
      }
      const result = new Map<string, string[]>();
      for (const [rule, hits] of found) {
        if (excluded.has(rule)) continue;
        const { monitorId, keywords } = rules[rule]!;
        result.set(monitorId, keywords.filter((_, position) => hits[position]));
      }
      return result;
    },
  };
}
