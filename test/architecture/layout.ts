import { execFileSync } from 'node:child_process';

/** `a.{b,c}.ts` → `a.b.ts`, `a.c.ts`: how the layout names several files of one folder at once. */
export function expandBraces(name: string): string[] {
  const match = /\{([^{}]*)\}/.exec(name);
  if (!match) return [name];
  return match[1]!.split(',').flatMap((part) => expandBraces(name.slice(0, match.index) + part.trim() + name.slice(match.index + match[0].length)));
}

/**
 * The file names a text mentions: words ending in a source extension, braces expanded. Patterns
 * (`<feature>.routes.ts`), elided names (`0001_….ts`) and bare suffixes (`.runner.ts`) describe kinds
 * of files, not files, and are skipped. (`.js` is left out: it mostly ends package names, ipaddr.js.)
 */
export function fileNamesIn(text: string): string[] {
  const words = text.match(/[\w./{},<>…-]+\.(?:ts|mjs|css)\b/g) ?? [];
  return [...new Set(words.filter((word) => !/[<>…]/.test(word) && !word.startsWith('.')).flatMap(expandBraces))];
}

/** The names no tracked file answers to: a name matches a file whose path ends with it (`poller/poller.usecases.ts`). */
export function missingFiles(names: string[], files: string[]): string[] {
  return names.filter((name) => !files.some((file) => file === name || file.endsWith(`/${name}`)));
}

export const trackedFiles = (): string[] => execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean);
