import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUIDE_GROUPS, GUIDES, guideUrl, type Guide, type GuideGroup, type GuidePage } from './apidocs.guides.ts';
import { renderMarkdown, rewriteMarkdownLinks } from './apidocs.markdown.ts';

/** Where the documents are: the checkout the server runs from (it runs its TypeScript sources, no build). */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const BY_SOURCE = new Map(GUIDES.map((guide) => [guide.source, guide]));
const BY_NAME = new Map(GUIDES.map((guide) => [guide.name, guide]));

/**
 * Where a link of the document `source` leads on this server: another document to its guide (or its
 * Markdown), a section of the same one as it is, another site as it is; null for a file of the
 * repository that is not served (a contributors' document, a source file), whose words then stay unlinked.
 */
export function guideLink(source: string, href: string, markdown: boolean): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//') || href.startsWith('#')) return href;
  const hash = href.indexOf('#');
  const file = hash < 0 ? href : href.slice(0, hash);
  const anchor = hash < 0 ? undefined : href.slice(hash + 1);
  const guide = BY_SOURCE.get(posix.normalize(posix.join(posix.dirname(source), file)));
  return guide ? guideUrl(guide.name, { anchor, markdown }) : null;
}

/**
 * The guides: each document read and rendered the first time it is asked for, then kept (they change
 * only with a new release, which is a new process). `read` is the file system but in tests.
 */
export function createGuidesUsecases(options: { root: string; read?: (path: string) => string }) {
  const read = options.read ?? ((path: string) => readFileSync(path, 'utf8'));
  const pages = new Map<string, GuidePage>();
  const markdowns = new Map<string, string>();

  return {
    groups: (): GuideGroup[] => GUIDE_GROUPS,

    find: (name: string): Guide | null => BY_NAME.get(name) ?? null,

    /** The guide as HTML, or null when no guide has that name. */
    page(name: string): GuidePage | null {
      const guide = BY_NAME.get(name);
      if (!guide) return null;
      let page = pages.get(name);
      if (!page) {
        const rendered = renderMarkdown(read(join(options.root, guide.source)), (href) => guideLink(guide.source, href, false));
        page = { guide, ...rendered };
        pages.set(name, page);
      }
      return page;
    },

    /** The guide's Markdown, its links leading to the other guides' Markdown; null when no guide has that name. */
    markdown(name: string): string | null {
      const guide = BY_NAME.get(name);
      if (!guide) return null;
      let text = markdowns.get(name);
      if (text === undefined) {
        text = rewriteMarkdownLinks(read(join(options.root, guide.source)), (href) => guideLink(guide.source, href, true));
        markdowns.set(name, text);
      }
      return text;
    },
  };
}

export type GuidesUsecases = ReturnType<typeof createGuidesUsecases>;
