import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, documents, examples, fencedBlocks, relativeLinks } from '../support/markdown.ts';
import { fileNamesIn, missingFiles, trackedFiles } from './layout.ts';

const readme = readFileSync('README.md', 'utf8');
const texts = new Map(documents().map((path) => [path, readFileSync(path, 'utf8')]));

/** Where a link of `document` leads: a path from the repository's root and an anchor, if any. */
function target(document: string, link: string): { path: string; anchor: string | undefined } {
  const [file, anchor] = link.split('#') as [string, string | undefined];
  return { path: file === '' ? document : relative(process.cwd(), resolve(dirname(document), file)), anchor };
}

describe('the README and the documents under docs/', () => {
  it('find README.md and every document under docs/, the spec included', () => {
    expect([...texts.keys()]).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/operations.md', 'docs/architecture.md', join('docs', 'spec', 'auth-and-scrape.md')]));
  });

  it('link only to files inside the repository that exist', () => {
    const broken = [...texts].flatMap(([document, text]) =>
      relativeLinks(text)
        .map((link) => ({ link, ...target(document, link) }))
        .filter(({ path }) => path.startsWith('..') || !existsSync(path))
        .map(({ link }) => `${document}: ${link}`),
    );
    expect(broken).toEqual([]);
  });

  it('link only to headings that exist, in the document linked to', () => {
    const broken = [...texts].flatMap(([document, text]) =>
      relativeLinks(text)
        .map((link) => ({ link, ...target(document, link) }))
        .filter(({ path, anchor }) => anchor !== undefined && path.endsWith('.md') && existsSync(path) && statSync(path).isFile())
        .filter(({ path, anchor }) => !anchorsOf(texts.get(path) ?? readFileSync(path, 'utf8')).has(anchor!))
        .map(({ link }) => `${document}: ${link}`),
    );
    expect(broken).toEqual([]);
  });

  it('reads anchors as GitHub makes them from headings, code and punctuation dropped, repeats numbered', () => {
    const anchors = anchorsOf('# Webhooks\n## `POST /api/v1/scrape`\n## Comments in one-off scrapes: `sources`\n```sh\n# not a heading\n```\n## The fake Reddit\'s listings (for contributors)\n## Gaps\n## Gaps\n');
    expect([...anchors]).toEqual(['webhooks', 'post-apiv1scrape', 'comments-in-one-off-scrapes-sources', 'the-fake-reddits-listings-for-contributors', 'gaps', 'gaps-1']);
  });

  it('the README is a front page of fewer than 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThan(250);
  });

  it("a block marked from=<file> (the README's SDK tabs) is a copy of a block of that file, which its own suite compiles and runs", () => {
    const copies = [...texts].flatMap(([document, text]) =>
      fencedBlocks(text)
        .map((block) => ({ document, block, from: /\bfrom=(\S+)/.exec(block.info)?.[1] }))
        .filter((copy) => copy.from !== undefined),
    );
    expect(copies.map((copy) => copy.from).sort()).toEqual(['sdk/python/README.md', 'sdk/typescript/README.md']);
    for (const { document, block, from } of copies) {
      const originals = fencedBlocks(readFileSync(from!, 'utf8')).map((original) => original.code);
      expect(originals, `${document}: the block from ${from}`).toContain(block.code);
    }
  });

  it('the README keeps the two commands that CI runs: one starts the service, one runs the tests', () => {
    const commands = fencedBlocks(readme).map((block) => block.code).join('\n');
    expect(commands).toMatch(/^npm install && npm start\b/m);
    expect(commands).toMatch(/^npm test\b/m);
    expect(readFileSync('.ci/run', 'utf8')).toMatch(/^npm test$/m);
  });

  it('name the API key variable the same way as the dashboard does', () => {
    const dashboard = readFileSync('src/modules/dashboard/views/keys.ts', 'utf8');
    const names = (text: string) => new Set([...text.matchAll(/\bSUBPILOT_[A-Z_]+\b/g)].map((m) => m[0]));
    expect([...names(dashboard)]).toEqual(['SUBPILOT_API_KEY']);
    const others = [...texts].flatMap(([document, text]) => [...names(text)].filter((name) => name !== 'SUBPILOT_API_KEY').map((name) => `${document}: ${name}`));
    expect(others).toEqual([]);
  });

  it('name only source files that exist, so the code layout cannot fall behind a move or a removal', () => {
    const files = trackedFiles();
    // The examples, and the types the TypeScript ones import, are files the reader makes.
    const readersFiles = new Set([...examples().keys(), 'subpilot-api.d.ts']);
    const missing = [...texts].flatMap(([document, text]) =>
      missingFiles(fileNamesIn(text), files)
        .filter((name) => !readersFiles.has(name))
        .map((name) => `${document}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('reads a name with braces as several files and a pattern or a bare suffix as no file', () => {
    expect(fileNamesIn('monitors.{routes,view}.ts, `<feature>.routes.ts`, (.runner.ts), 0001_….ts')).toEqual(['monitors.routes.ts', 'monitors.view.ts']);
    expect(missingFiles(['poller/poller.usecases.ts', 'monitors.poller.ts'], ['src/modules/monitors/poller/poller.usecases.ts'])).toEqual(['monitors.poller.ts']);
  });
});
