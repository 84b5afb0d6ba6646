import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sourceFiles } from './imports.ts';

/**
 * Where SQL is written, checked from the source text: only in the files whose role is storage, so a
 * usecase says what happens and its repository how it is stored. Query-builder calls, `sql` templates
 * and helpers, and schema changes count.
 */
const QUERIES: [name: string, pattern: RegExp][] = [
  ['.selectFrom(', /\.selectFrom\(/],
  ['.insertInto(', /\.insertInto\(/],
  ['.updateTable(', /\.updateTable\(/],
  ['.deleteFrom(', /\.deleteFrom\(/],
  ['.replaceInto(', /\.replaceInto\(/],
  ['sql`', /\bsql(?:<[^`;]*>)?`/],
  ['sql.', /\bsql\.\w+\(/],
  ['.schema.', /\.schema\./],
];

/** A module's repositories and stores (ratelimit's `*.stores.ts`, `*.budget-stores.ts`), and the database layer itself (migrations). */
const STORAGE = [/\.repository\.ts$/, /[.-]stores\.ts$/, /^src\/shared\/db\//];

/** A line of a comment: it may name a query without making one. */
const COMMENT = /^\s*(\/\/|\/\*|\*)/;

/** Each query written in `text` where a file at `path` (relative to the repository root) may not hold one, as `path:line: query`. */
export function misplacedQueries(path: string, text: string): string[] {
  if (STORAGE.some((pattern) => pattern.test(path))) return [];
  return text.split('\n').flatMap((line, i) => {
    if (COMMENT.test(line)) return [];
    return QUERIES.filter(([, pattern]) => pattern.test(line)).map(([name]) => `${path}:${i + 1}: ${name}`);
  });
}

/** Every misplaced query of the TypeScript files under `folder`, tests left out. */
export function misplacedQueriesIn(root: string, folder = 'src'): string[] {
  return [...sourceFiles(join(root, folder))].flatMap((file) => misplacedQueries(relative(root, file), readFileSync(file, 'utf8')));
}
