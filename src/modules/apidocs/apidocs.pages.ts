import { ASSETS } from './apidocs.assets.ts';
import { guideUrl, type Guide, type GuideGroup, type GuidePage } from './apidocs.guides.ts';

/**
 * The HTML around the guides: the header the reference has, the list of guides beside the text (below
 * it on a phone), a guide's sections. The documents' own HTML comes from apidocs.markdown.ts; every other
 * text put on a page here is escaped. No script: the pages are text and links.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string): string => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

const asset = (name: string) => `/docs/assets/${name}`;

function shell(options: { title: string; body: string; alternate?: string }): string {
  const alternate = options.alternate ? `\n<link rel="alternate" type="text/markdown" href="${options.alternate}">` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(options.title)}</title>
<link rel="icon" type="image/png" sizes="32x32" href="${asset(ASSETS.icon.name)}">
<link rel="stylesheet" href="${asset(ASSETS.css.name)}">
<link rel="stylesheet" href="${asset(ASSETS.guidesCss.name)}">${alternate}
</head>
<body>
<header class="docs-top">
  <a class="brand" href="/dashboard/keys">subpilot</a>
  <nav aria-label="Links"><a href="/docs/guides">Guides</a> <a href="/docs">API reference</a> <a href="/dashboard/keys">Dashboard</a></nav>
</header>
${options.body}
</body>
</html>
`;
}

/** Every guide, by group, the current one marked: beside a guide on a wide screen, under it on a phone. */
function guideList(groups: GuideGroup[], current: string | null): string {
  const item = (guide: Guide) =>
    `<li><a href="${guideUrl(guide.name)}"${guide.name === current ? ' aria-current="page"' : ''}>${escape(guide.title)}</a></li>`;
  const sections = groups.map((group) => `<h2>${escape(group.heading)}</h2>\n<ul>${group.guides.map(item).join('')}</ul>`);
  return `<nav class="guide-list" aria-label="Guides">\n${sections.join('\n')}\n</nav>`;
}

/** The sections of a long guide, listed under its title. */
function sections(page: GuidePage): string {
  const top = page.headings.filter((heading) => heading.level === 2);
  if (top.length < 3) return '';
  const items = top.map((heading) => `<li><a href="#${heading.id}">${escape(heading.text)}</a></li>`).join('');
  return `<nav class="guide-sections" aria-label="On this page"><p>On this page</p><ul>${items}</ul></nav>\n`;
}

/** The document's HTML with its sections listed after its first heading (its title). */
const withSections = (page: GuidePage): string => page.html.replace(/<\/h1>\n/, (end) => `${end}${sections(page)}`);

export function guideHtml(page: GuidePage, groups: GuideGroup[]): string {
  const { guide } = page;
  const markdown = guideUrl(guide.name, { markdown: true });
  const body = `<div class="guide-layout">
<main class="guide">
<p class="guide-path"><a href="/docs/guides">Guides</a> · <a href="${markdown}" type="text/markdown">Markdown</a></p>
<article>
${withSections(page)}</article>
</main>
${guideList(groups, guide.name)}
</div>`;
  return shell({ title: `${guide.title} · subpilot guides`, body, alternate: markdown });
}

export function indexHtml(groups: GuideGroup[]): string {
  const entry = (guide: Guide) =>
    `<li><a href="${guideUrl(guide.name)}">${escape(guide.title)}</a><span>${escape(guide.summary)}</span></li>`;
  const list = groups.map((group) => `<section>\n<h2>${escape(group.heading)}</h2>\n<ul class="guide-index">${group.guides.map(entry).join('')}</ul>\n</section>`);
  const body = `<main class="guide guide-home">
<h1>Guides</h1>
<p>How to use subpilot: its API, monitors and alerts, replies, and the MCP server for AI agents. Every
endpoint, its fields and its answers are in the <a href="/docs">API reference</a>. Each guide is also
served as Markdown, at its address followed by <code>.md</code>.</p>
${list.join('\n')}
</main>`;
  return shell({ title: 'subpilot guides', body });
}

export function missingHtml(groups: GuideGroup[]): string {
  const body = `<div class="guide-layout">
<main class="guide">
<h1>No such guide</h1>
<p>No guide has that name. The guides are listed on <a href="/docs/guides">the guides' page</a>.</p>
</main>
${guideList(groups, null)}
</div>`;
  return shell({ title: 'No such guide · subpilot guides', body });
}
