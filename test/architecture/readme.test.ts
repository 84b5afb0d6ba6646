import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileNamesIn, missingFiles, trackedFiles } from './layout.ts';

const readme = readFileSync('README.md', 'utf8');

describe('the README', () => {
  it('links only to files that are in the repository', () => {
    const outside = [...readme.matchAll(/`(\.\.\/[^`\s]+)`|\]\((\.\.\/[^)\s]+)\)/g)].map((m) => m[1] ?? m[2]);
    expect(outside).toEqual([]);
    const local = [...readme.matchAll(/\]\(((?!https?:|#|mailto:)[^)\s]+)\)/g)].map((m) => m[1]!.split('#')[0]!);
    expect(local.filter((path) => !existsSync(path))).toEqual([]);
  });

  it('names the API key variable the same way as the dashboard does', () => {
    const dashboard = readFileSync('src/modules/dashboard/views/keys.ts', 'utf8');
    const names = (text: string) => new Set([...text.matchAll(/\bSUBPILOT_[A-Z_]+\b/g)].map((m) => m[0]));
    expect([...names(dashboard)]).toEqual(['SUBPILOT_API_KEY']);
    expect([...names(readme)].filter((name) => name !== 'SUBPILOT_API_KEY')).toEqual([]);
  });

  it('names only source files that exist, so its code layout cannot fall behind a move or a removal', () => {
    expect(missingFiles(fileNamesIn(readme), trackedFiles())).toEqual([]);
  });

  it('reads a name with braces as several files and a pattern or a bare suffix as no file', () => {
    expect(fileNamesIn('monitors.{routes,view}.ts, `<feature>.routes.ts`, (.runner.ts), 0001_….ts')).toEqual(['monitors.routes.ts', 'monitors.view.ts']);
    expect(missingFiles(['poller/poller.usecases.ts', 'monitors.poller.ts'], ['src/modules/monitors/poller/poller.usecases.ts'])).toEqual(['monitors.poller.ts']);
  });
});
