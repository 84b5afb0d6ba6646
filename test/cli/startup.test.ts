import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `import … from '…'` that runs at load time: type-only imports and `import()` are left out. */
const STATIC_IMPORT = /^import\s+(?!type\s)[^'"]*?['"]([^'"]+)['"]/gm;

/** The packages a file loads before it runs, through its static imports and theirs. */
function packagesLoadedBy(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!));
      else if (!specifier!.startsWith('node:')) packages.add(specifier!.split('/').slice(0, specifier!.startsWith('@') ? 2 : 1).join('/'));
    }
  };
  visit(resolve(root, entry));
  return packages;
}

// What only `serve` and `worker` use; loading it cost a one-shot command about a second. (pg-boss and
// ioredis are imported by the container only when a queue or Redis is first used.)
const SERVER_ONLY = ['fastify', '@fastify/cookie', '@fastify/formbody', '@fastify/swagger', 'openai', 'typebox', 'pino'];

describe('what a one-shot command loads', () => {
  it('the CLI entry loads only commander before a command runs', () => {
    expect([...packagesLoadedBy('src/cli/main.ts')]).toEqual(['commander']);
  });

  it('the services of accounts, credits and keys load no HTTP server, schema or LLM code', () => {
    const loaded = packagesLoadedBy('src/app/cli-services.ts');
    expect(SERVER_ONLY.filter((name) => loaded.has(name))).toEqual([]);
    expect([...loaded].sort()).toEqual(['@riaskov/mmap-io', 'argon2', 'better-sqlite3', 'kysely', 'pg']);
  });

  it('the server still loads through serve.ts, so the list above means something', () => {
    const loaded = packagesLoadedBy('src/cli/serve.ts');
    expect(SERVER_ONLY.filter((name) => !loaded.has(name))).toEqual([]);
  });

  it('bin/subpilot.mjs imports those libraries before it registers tsx, whose hooks cost a round trip per file', () => {
    const bin = readFileSync(resolve(root, 'bin/subpilot.mjs'), 'utf8');
    const preloaded = /\[([^\]]*)\]\.map\(\(name\) => import\(name\)\)/.exec(bin)?.[1];
    expect(preloaded, relative(root, 'bin/subpilot.mjs')).toBeDefined();
    expect(bin.indexOf('register();')).toBeGreaterThan(bin.indexOf(preloaded!));
    for (const name of packagesLoadedBy('src/app/cli-services.ts')) expect(preloaded).toContain(`'${name}'`);
  });
});
