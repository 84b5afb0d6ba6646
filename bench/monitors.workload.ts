/**
 * The world of the monitors benchmark: subreddits with uneven traffic, monitors of made-up
 * keywords over random subsets of them, posts and comments with keywords planted on purpose (in other
 * cases, across line breaks, inside longer words, next to an exclude), and an independent judge of which
 * monitor must get which item: plain regular expressions over the text, not the service's matcher.
 */
import type { MatchMode, MonitorSource } from '../src/modules/monitors/monitors.tables.ts';

export interface BenchMonitor {
  /** Lower-case names, no "r/". */
  subreddits: string[];
  sources: MonitorSource[];
  mode: MatchMode;
  keywords: string[];
  excludes: string[];
  /** The judge's test of each keyword and exclude, in the monitor's mode. */
  tests: { keywords: ((folded: string) => boolean)[]; excludes: ((folded: string) => boolean)[] };
}

export interface BenchItem {
  type: 'post' | 'comment';
  subreddit: string;
  /** Empty for a comment (only a comment's own text is matched). */
  title: string;
  body: string;
}

/** mulberry32: a small seeded generator, so a run can be repeated exactly. */
export function seeded(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORD_CHAR = '[\\p{L}\\p{N}\\p{M}_]';
const STOP_WORDS = 'the a and to of in is it for on with this that my you we was but not have just so what'.split(' ');
const EMOJI = ['🚀', '👍🏽', '🔥'];

/** What a monitor compares: NFC, lower case, every whitespace run one space (the workload has no ß, İ or ς). */
export const foldText = (text: string) => text.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ');

/** The judge's test of one keyword; the generated keywords begin and end with letters, so `word` is plain look-arounds. */
function judge(keyword: string, mode: MatchMode): (folded: string) => boolean {
  const folded = foldText(keyword);
  if (mode === 'phrase') return (text) => text.includes(folded);
  const pattern = new RegExp(`(?<!${WORD_CHAR})${folded.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!${WORD_CHAR})`, 'u');
  return (text) => pattern.test(text);
}

export function createWorkload(options: { seed: number; subreddits: number; monitors: number; keywordsPerMonitor: number }) {
  const random = seeded(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const syllables = [...'bdfgklmnprstvz'].flatMap((c) => [...'aeiouéü'].map((v) => c + v));
  const pseudoWord = (count: number) => Array.from({ length: count }, () => pick(syllables)).join('');

  const subreddits = Array.from({ length: options.subreddits }, (_, i) => `benchsub${String(i).padStart(3, '0')}`);
  // Zipf-like traffic, the busy ones scattered over the alphabetical groups of 100 the poller reads together.
  const weights = subreddits.map((_, i) => 1 / (1 + i));
  for (let i = weights.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [weights[i], weights[j]] = [weights[j]!, weights[i]!];
  }
  const cumulative: number[] = [];
  weights.reduce((sum, weight, i) => (cumulative[i] = sum + weight), 0);
  const busySubreddit = () => {
    const target = random() * cumulative[cumulative.length - 1]!;
    let low = 0;
    for (let high = cumulative.length - 1; low < high; ) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return subreddits[low]!;
  };

  // Keywords are three-syllable made-up words (sometimes two of them); filler words have one or two
  // syllables, and a few have four, so a phrase keyword now and then turns up inside one by chance.
  const used = new Set<string>();
  const freshKeyword = () => {
    for (;;) {
      const keyword = random() < 0.3 ? `${pseudoWord(3)} ${pseudoWord(3)}` : pseudoWord(3);
      if (!used.has(keyword)) return used.add(keyword), keyword;
    }
  };
  const filler = [...STOP_WORDS, ...Array.from({ length: 1500 }, () => pseudoWord(1 + Math.floor(random() * 2)))];
  const rareFiller = Array.from({ length: 300 }, () => pseudoWord(4));

  const monitors: BenchMonitor[] = Array.from({ length: options.monitors }, () => {
    const mode: MatchMode = random() < 0.5 ? 'phrase' : 'word';
    const size = 5 + Math.floor(random() * 36);
    const chosen = new Set<string>();
    while (chosen.size < size) chosen.add(pick(subreddits));
    const sources: MonitorSource[][] = [['posts'], ['comments'], ['posts', 'comments']];
    const keywords = Array.from({ length: options.keywordsPerMonitor }, freshKeyword);
    const excludes = random() < 0.2 ? [freshKeyword()] : [];
    const tests = { keywords: keywords.map((k) => judge(k, mode)), excludes: excludes.map((k) => judge(k, mode)) };
    return { subreddits: [...chosen], sources: pick(sources), mode, keywords, excludes, tests };
  });
  const watchers = new Map<string, number[]>(); // "posts:name" → monitor indexes
  monitors.forEach((monitor, index) => {
    for (const source of monitor.sources) {
      for (const name of monitor.subreddits) watchers.set(`${source}:${name}`, [...(watchers.get(`${source}:${name}`) ?? []), index]);
    }
  });

  const sentence = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => {
      const roll = random();
      return roll < 0.03 ? pick(rareFiller) : roll < 0.04 ? pick(EMOJI) : roll < 0.08 ? `${pick(filler)},` : pick(filler);
    });

  /** A keyword as a person might type it: another case, punctuation around, a line break inside. */
  function variant(keyword: string, monitor: BenchMonitor): string {
    const roll = random();
    let text = roll < 0.2 ? keyword.toUpperCase() : roll < 0.35 ? keyword[0]!.toUpperCase() + keyword.slice(1) : keyword;
    if (random() < 0.3) text = text.replace(' ', pick(['\n', '  ', '\t ']));
    // Inside a longer word: a hit for a phrase monitor, none for a word monitor.
    if (random() < 0.1) return `zu${text}ra`;
    return monitor.mode === 'word' && random() < 0.3 ? `(${text}),` : text;
  }

  /** One new item of the given subreddit, with a keyword of one of its watchers planted about a third of the time. */
  function item(type: BenchItem['type']): BenchItem {
    const subreddit = busySubreddit();
    const words = sentence(type === 'post' ? 5 : 8, type === 'post' ? 40 : 60);
    const candidates = watchers.get(`${type === 'post' ? 'posts' : 'comments'}:${subreddit}`) ?? [];
    if (candidates.length > 0 && random() < 0.35) {
      const monitor = monitors[pick(candidates)]!;
      words.splice(Math.floor(random() * words.length), 0, variant(pick(monitor.keywords), monitor));
      if (monitor.excludes.length > 0 && random() < 0.3) words.splice(Math.floor(random() * words.length), 0, monitor.excludes[0]!);
    }
    if (type === 'comment') return { type, subreddit, title: '', body: words.join(' ') };
    const split = Math.min(words.length, 4 + Math.floor(random() * 8));
    return { type, subreddit, title: words.slice(0, split).join(' '), body: words.slice(split).join(' ') };
  }

  /** The text a monitor sees: a post's title and text, a comment's own text. */
  const textOf = (entry: BenchItem) => (entry.type === 'post' ? `${entry.title}\n${entry.body}` : entry.body);

  /** The judge: monitor index → its keywords found, for each monitor that must get this item. */
  function expected(entry: BenchItem): Map<number, string[]> {
    const folded = foldText(textOf(entry));
    const found = new Map<number, string[]>();
    for (const index of watchers.get(`${entry.type === 'post' ? 'posts' : 'comments'}:${entry.subreddit}`) ?? []) {
      const { keywords, tests } = monitors[index]!;
      const hits = keywords.filter((_, k) => tests.keywords[k]!(folded));
      if (hits.length > 0 && !tests.excludes.some((test) => test(folded))) found.set(index, hits);
    }
    return found;
  }

  return { subreddits, monitors, item, expected, random };
}
