/**
 * Text measured in characters as Reddit counts them: Unicode code points (Python's len(), which the
 * validators of its open-source code compare with their limits), so an emoji is one character though
 * a JavaScript string holds it as two UTF-16 units. Ajv's maxLength, behind publish's limits, agrees.
 */

/**
 * At most `max` code points (a surrogate pair is never split), and whether anything was cut. Counting
 * stops at `max`, so a huge text costs no more than a short one.
 */
export function capText(value: string, max: number): { text: string; cut: boolean } {
  if (value.length <= max) return { text: value, cut: false };
  let end = 0;
  let points = 0;
  for (const char of value) {
    if (points === max) return { text: value.slice(0, end), cut: true };
    end += char.length;
    points++;
  }
  return { text: value, cut: false };
}

/** At most `max` characters, cut back to the last whitespace when the cut would split a word. */
export function clip(text: string, max: number): string {
  const { text: kept, cut } = capText(text, max);
  if (!cut) return text;
  if (/\s/.test(text[kept.length]!)) return kept.trimEnd();
  const space = kept.search(/\s\S*$/);
  // One word longer than half the limit (a URL, text without spaces) is cut rather than lose over half.
  return (space > kept.length / 2 ? kept.slice(0, space) : kept).trimEnd();
}

/** A ledger amount with its sign, `+500` or `-2`, so credits coming in and going out read apart. */
export const signed = (amount: number) => (amount > 0 ? `+${amount}` : String(amount));

/** `12,345`: a count with its thousands grouped, as the dashboard and messages show figures. */
export const formatNumber = (value: number) => value.toLocaleString('en-US');

/** `3 matches`, `1 event`: a count with the noun that agrees with it. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Posts and comments counted in words, naming only the kinds that were looked for (`read`) or found:
 * "3 posts", "1 post and 2 comments", "4 comments". A scrape's page and its ledger line say it alike;
 * "and 0 comments" of a scrape that never read comments would suggest it did.
 */
export function postsAndComments(found: { posts: number; comments: number }, read: readonly string[]): string {
  const parts = [
    found.posts > 0 || read.includes('posts') ? plural(found.posts, 'post') : null,
    found.comments > 0 || read.includes('comments') ? plural(found.comments, 'comment') : null,
  ].filter((part) => part !== null);
  return parts.length ? parts.join(' and ') : plural(found.posts, 'post');
}

/**
 * Edit distance for "did you mean": insertions, deletions, substitutions and two neighbours swapped
 * (`titel` is one edit from `title`), each counting one. Names are short, so the plain table will do.
 */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j]!, before[j - 2]! + 1);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** The known name closest to a misspelt one: a third of its letters wrong at most, or one starts the other. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const typed = name.toLowerCase();
  const scored = known.map((candidate) => ({ candidate, score: distance(typed, candidate.toLowerCase()) }));
  const best = scored.sort((a, b) => a.score - b.score)[0];
  if (best && best.score <= Math.max(1, Math.floor(typed.length / 3))) return best.candidate;
  if (typed.length < 4) return undefined;
  return known.find((candidate) => candidate.toLowerCase().startsWith(typed) || typed.startsWith(candidate.toLowerCase()));
}
