import MarkdownIt, { type Token } from 'markdown-it';

/**
 * The guides' Markdown as HTML, with markdown-it: CommonMark plus GitHub's tables, the renderer the
 * documents are written for. Raw HTML in a document is shown as text, never passed through (`html:
 * false`), and markdown-it refuses javascript:, vbscript:, file: and data: links (its validateLink), so a
 * document cannot put a script or a style on the page: the pages keep script-src and style-src 'self'.
 */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Where a link of a document leads on this server, or null for a file that is not served: its text stays, unlinked. */
export type LinkRewrite = (href: string) => string | null;

export interface Heading {
  level: number;
  id: string;
  text: string;
}

export interface RenderedMarkdown {
  html: string;
  headings: Heading[];
}

/**
 * The anchor GitHub gives a heading, so the documents' links (`api.md#rate-limits`) find it here too:
 * lower case, letters, digits, `_`, `-` and spaces kept, spaces as `-`; a repeat gets `-1`, `-2`.
 */
function slugOf(text: string, taken: Set<string>): string {
  const slug = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
  let id = slug;
  for (let n = 1; taken.has(id); n++) id = `${slug}-${n}`;
  taken.add(id);
  return id;
}

/** The text a heading reads as, code included and markup left out. */
const plainText = (inline: Token | undefined): string =>
  (inline?.children ?? []).map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('');

/** Links rewritten by `rewrite`; a link it drops loses its two tags and keeps what they held. */
function rewriteLinks(children: Token[], rewrite: LinkRewrite): Token[] {
  const kept: Token[] = [];
  let dropping = false;
  for (const token of children) {
    if (token.type === 'link_open') {
      const target = rewrite(String(token.attrGet('href') ?? ''));
      dropping = target === null;
      if (dropping) continue;
      token.attrSet('href', target!);
    } else if (token.type === 'link_close' && dropping) {
      dropping = false;
      continue;
    }
    kept.push(token);
  }
  return kept;
}

/**
 * A table column's alignment is a class, not the style attribute markdown-it writes: the CSP allows no
 * inline style (the stylesheet has `.align-left`, `.align-center`, `.align-right`).
 */
function alignmentAsClass(token: Token): void {
  const align = /^text-align:(left|center|right)$/.exec(String(token.attrGet('style') ?? ''))?.[1];
  if (!token.attrs || !align) return;
  token.attrs = token.attrs.filter(([name]) => name !== 'style');
  token.attrJoin('class', `align-${align}`);
}

/** A document as HTML, its links rewritten by `rewrite`, each heading with the id GitHub would give it. */
export function renderMarkdown(source: string, rewrite: LinkRewrite): RenderedMarkdown {
  const tokens = md.parse(source, {});
  const taken = new Set<string>();
  const headings: Heading[] = [];
  tokens.forEach((token, index) => {
    if (token.type === 'inline' && token.children) token.children = rewriteLinks(token.children, rewrite);
    if (token.type === 'th_open' || token.type === 'td_open') alignmentAsClass(token);
    if (token.type === 'heading_open') {
      const text = plainText(tokens[index + 1]);
      const id = slugOf(text, taken);
      token.attrSet('id', id);
      headings.push({ level: Number(token.tag.slice(1)), id, text });
    }
  });
  return { html: md.renderer.render(tokens, md.options, {}), headings };
}

/** `[text](target)`, the link text possibly holding code spans; the only link form the documents use. */
const INLINE_LINK = /\[((?:[^[\]`]|`[^`]*`)*)\]\(([^)\s]+)\)/g;

/** Where the code spans of a text are: a link inside one is code, not a link. */
function codeSpans(text: string): [number, number][] {
  return [...text.matchAll(/(`+)[^`]*?\1/g)].map((match) => [match.index, match.index + match[0].length]);
}

/** The links of a text outside fenced code, rewritten; a link's text may run over lines. */
function rewriteProse(text: string, rewrite: LinkRewrite): string {
  const spans = codeSpans(text);
  return text.replace(INLINE_LINK, (link: string, words: string, href: string, at: number) => {
    if (spans.some(([start, end]) => at >= start && at < end)) return link;
    const target = rewrite(href);
    return target === null ? words : `[${words}](${target})`;
  });
}

/**
 * The same document as Markdown, its links rewritten by `rewrite` (a dropped one left as its text),
 * fenced code untouched: what /docs/guides/<name>.md serves, for readers and tools that want the source.
 */
export function rewriteMarkdownLinks(source: string, rewrite: LinkRewrite): string {
  const out: string[] = [];
  let prose: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    if (prose.length > 0) out.push(rewriteProse(prose.join('\n'), rewrite));
    prose = [];
  };
  for (const line of source.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      flush();
      fence = marker;
      out.push(line);
    } else if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      out.push(line);
    } else {
      prose.push(line);
    }
  }
  flush();
  return out.join('\n');
}
