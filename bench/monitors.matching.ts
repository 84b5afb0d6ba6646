/**
 * The local matching of the monitors benchmark: `MatchIndex.match` alone over the items the run
 * wrote, with every monitor's rule in one index; no I/O, one core. Two indexes over the same items:
 * each monitor's keywords and excludes as the query they mean (keywordsQuery), and each monitor with
 * a query written from its own keywords (so the planted keywords hit), five shapes in turn: groups
 * ANDed inside an OR, `title:`, `type:`, `NOT ( … )` and `author:`. Every item gets an author from a
 * pool the `author:` terms name, a few of them AutoModerator.
 */
import { buildMatchIndex, type MatchItem, type QueryRule } from '../src/shared/matching/keywords.ts';
import { keywordsQuery, parseQuery } from '../src/shared/matching/query.ts';
import { seeded, type BenchItem, type BenchMonitor } from './monitors.workload.ts';

const AUTHORS = 1000;
const authorName = (i: number) => `benchuser${String(i % AUTHORS).padStart(3, '0')}`;

/** Monitor `i`'s query over its ten keywords k0…k9, its exclude (if any) ruled out in every shape. */
export function queryOf(monitor: BenchMonitor, i: number): string {
  const k = monitor.keywords.map((keyword) => `"${keyword}"`);
  const any = (from: number, to: number) => k.slice(from, to).join(' OR ');
  const exclude = monitor.excludes.length > 0 ? `"${monitor.excludes[0]}"` : null;
  const shapes = [
    () => `${any(0, 5)} OR (${any(5, 7)}) (${any(7, k.length)})`,
    () => `title:(${any(0, 3)}) OR ${any(3, k.length)}`,
    () => `(${any(0, 7)}) type:comment OR (${any(7, k.length)}) type:post`,
    () => `(${any(0, k.length - 2)}) NOT (${exclude ? `${exclude} OR ` : ''}(${k.at(-2)} ${k.at(-1)}))`,
    () => `(${any(0, k.length)} OR author:${authorName(i)}) -author:AutoModerator`,
  ];
  const shape = i % shapes.length;
  const query = shapes[shape]!();
  return exclude && shape !== 3 ? `(${query}) -${exclude}` : query;
}

/** The index's throughput over `items`: built once, warmed up, then matched in a loop for at least 3 s. */
function throughput(rules: QueryRule[], items: MatchItem[]) {
  const built = performance.now();
  const index = buildMatchIndex(rules);
  const buildMs = performance.now() - built;
  for (const item of items.slice(0, 2000)) index.match(item); // warm-up
  let matched = 0;
  let hits = 0;
  const began = performance.now();
  do for (const item of items) (hits += index.match(item).size), matched++;
  while (performance.now() - began < 3000);
  return { perSecond: matched / ((performance.now() - began) / 1000), buildMs, hitsPerItem: hits / matched };
}

export function measureMatching(monitors: BenchMonitor[], written: BenchItem[]) {
  const random = seeded(1);
  const items: MatchItem[] = written.map(({ type, title, body }) => ({
    type,
    title,
    body,
    author: random() < 0.05 ? 'AutoModerator' : authorName(Math.floor(random() * AUTHORS)),
  }));
  const keywords = monitors.map((monitor, i) => ({ monitorId: `m${i}`, query: keywordsQuery(monitor.keywords, monitor.excludes), mode: monitor.mode }));
  const queries = monitors.map((monitor, i) => ({ monitorId: `m${i}`, query: parseQuery(queryOf(monitor, i)), mode: monitor.mode }));
  return { keywords: throughput(keywords, items), queries: throughput(queries, items) };
}
