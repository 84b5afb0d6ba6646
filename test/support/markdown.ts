import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** README.md and every document under docs/, as paths from the repository's root. */
export function documents(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []))
      .sort();
  return ['README.md', ...walk('docs')];
}

export interface Block {
  info: string;
  code: string;
}

/** The fenced code blocks of a text, with their info string (what follows the opening fence). */
export function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let open: { info: string; fence: string; indent: number; lines: string[] } | null = null;
  for (const line of markdown.split('\n')) {
    const fence = /^( *)(`{3,})(.*)$/.exec(line);
    if (!open) {
      if (fence) open = { indent: fence[1]!.length, fence: fence[2]!, info: fence[3]!.trim(), lines: [] };
    } else if (fence && fence[2]!.length >= open.fence.length && fence[3]!.trim() === '') {
      blocks.push({ info: open.info, code: open.lines.join('\n') + '\n' });
      open = null;
    } else {
      // A block inside a list item is indented like its fence; the code is not.
      open.lines.push(line.slice(Math.min(open.indent, /^ */.exec(line)![0].length)));
    }
  }
  return blocks;
}

/** The text outside fenced blocks and inline code, where headings and links are. */
export function prose(markdown: string): string {
  let inside = false;
  return markdown
    .split('\n')
    .filter((line) => {
      if (/^\s*```/.test(line)) inside = !inside;
      else return !inside;
      return false;
    })
    .join('\n')
    .replace(/`[^`\n]*`/g, (code) => code.replace(/[[\]()]/g, ''));
}

/**
 * The anchors GitHub gives a document's headings: the heading's text, lower case, without
 * punctuation or symbols (letters, digits, `_`, `-` and spaces stay), spaces as `-`; a repeated
 * one gets `-1`, `-2`.
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, text] of prose(markdown).replace(/`/g, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = text!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The targets of a document's links that are neither absolute URLs nor mail addresses. */
export function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

export interface Example {
  /** The file it is written to and run as: `scrape.py`, `quickstart-key.sh`. */
  name: string;
  code: string;
  document: string;
}

/** Code blocks marked as examples (```` ```python example=scrape.py ````), by name, from every document. */
export function examples(): Map<string, Example> {
  const found = new Map<string, Example>();
  for (const document of documents()) {
    for (const block of fencedBlocks(readFileSync(document, 'utf8'))) {
      const name = /(?:^|\s)example=(\S+)/.exec(block.info)?.[1];
      if (!name) continue;
      if (found.has(name)) throw new Error(`two examples are named ${name} (${found.get(name)!.document}, ${document})`);
      found.set(name, { name, code: block.code, document });
    }
  }
  return found;
}
