import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDES } from '../../src/modules/apidocs/apidocs.guides.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * A link that names a file of the repository rather than a page of this server, or the repository on
 * a code host (links to other projects' repositories, a library the text cites, are fine).
 */
const REPOSITORY_PATH = /(?:^|\/)(?:docs|src|test|bench|bin)\/[^#?]*\.(?:md|ts|mjs)(?:[#?]|$)|\.md(?:[#?]|$)|github\.com\/[^/]+\/subpilot/i;

const hrefsOf = (page: string) => [...page.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
const idsOf = (page: string) => new Set([...page.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!));

/** The guides touch no database, so one engine is enough. */
describe('the guides at /docs/guides', () => {
  let app: TestApp;
  /** Every page reached from the index, by path, with its body. */
  const pages = new Map<string, string>();

  beforeAll(async () => {
    app = await startTestApp('sqlite', { worker: false });
    // The crawl: from the index, every link to a page of this server, until no new one is found.
    const queue = ['/docs/guides'];
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (pages.has(path)) continue;
      const response = await app.api('GET', path);
      expect(response.status, path).toBe(200);
      pages.set(path, await response.text());
      for (const href of hrefsOf(pages.get(path)!)) {
        const target = new URL(href, `http://host${path}`);
        if (target.host === 'host' && target.pathname.startsWith('/docs/guides') && !target.pathname.endsWith('.md')) queue.push(target.pathname);
      }
    }
  }, 60_000);
  afterAll(() => app?.close());

  it('the index links to every guide, and each guide is an HTML page under the reference\'s policy', async () => {
    expect([...pages.keys()].filter((path) => path !== '/docs/guides').sort()).toEqual(GUIDES.map((guide) => `/docs/guides/${guide.name}`).sort());
    for (const path of ['/docs/guides', '/docs/guides/queries']) {
      const [guide, reference] = [await app.api('GET', path), await app.api('GET', '/docs')];
      expect(guide.headers.get('content-type')).toBe('text/html; charset=utf-8');
      for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'x-content-type-options']) {
        expect(guide.headers.get(name), name).toBe(reference.headers.get(name));
      }
      expect(guide.headers.get('content-security-policy')).not.toContain('unsafe');
      await Promise.all([guide.text(), reference.text()]);
    }
  });

  it('every link of every page resolves: pages and their Markdown answer 200, and each #section exists on its page', async () => {
    const fetched = new Map<string, Promise<{ status: number; body: string }>>();
    const fetchOnce = (path: string) => {
      if (!fetched.has(path)) fetched.set(path, app.api('GET', path).then(async (response) => ({ status: response.status, body: await response.text() })));
      return fetched.get(path)!;
    };
    const broken: string[] = [];
    for (const [path, page] of pages) {
      for (const href of hrefsOf(page)) {
        const target = new URL(href, `http://host${path}`);
        if (target.host !== 'host') continue;
        const { status, body } = await fetchOnce(target.pathname);
        if (status !== 200) broken.push(`${path}: ${href} → ${status}`);
        else if (target.hash && !idsOf(body).has(decodeURIComponent(target.hash.slice(1)))) broken.push(`${path}: ${href} (no such section)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no page and no Markdown links to a path of the repository or to its host', async () => {
    const found: string[] = [];
    for (const [path, page] of pages) {
      for (const href of hrefsOf(page)) {
        const local = new URL(href, `http://host${path}`);
        const ownMarkdown = local.host === 'host' && /^\/docs\/guides\/[a-z0-9-]+\.md$/.test(local.pathname);
        if (!ownMarkdown && REPOSITORY_PATH.test(href)) found.push(`${path}: ${href}`);
      }
    }
    for (const guide of GUIDES) {
      const markdown = await (await app.api('GET', `/docs/guides/${guide.name}.md`)).text();
      const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
      const own = (link: string) => /^(?:https?:|#|\/docs\/guides\/[a-z0-9-]+\.md(?:#|$))/.test(link);
      found.push(...links.filter((link) => !own(link) || REPOSITORY_PATH.test(link.replace(/^\/docs\/guides\/[a-z0-9-]+\.md/, ''))).map((link) => `${guide.name}.md: ${link}`));
    }
    expect(found).toEqual([]);
  });

  it('serves each guide\'s Markdown as text/markdown, its links leading to the other guides\' Markdown', async () => {
    const response = await app.api('GET', '/docs/guides/relevance.md');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await response.text();
    expect(text).toMatch(/^# Relevance/);
    expect(text).toContain('[queries](/docs/guides/queries.md)');
    expect(pages.get('/docs/guides/relevance')).toContain('<link rel="alternate" type="text/markdown" href="/docs/guides/relevance.md">');
  });

  it('a guide\'s links to another guide\'s section lead to that section on this server', () => {
    const queries = pages.get('/docs/guides/queries')!;
    expect(hrefsOf(queries)).toEqual(expect.arrayContaining(['/docs/guides/monitors#creating-a-monitor', '/docs/guides/scrape#post-apiv1scrape', '/docs/guides/api#validation-messages']));
    expect(queries).toContain('<h2 id="errors">Errors</h2>');
  });

  it('lists every document under docs/api/ as a guide, so none is left off the instance', () => {
    const documents = readdirSync('docs/api').filter((name) => name.endsWith('.md')).map((name) => `docs/api/${name}`);
    expect(documents.filter((source) => !GUIDES.some((guide) => guide.source === source))).toEqual([]);
  });

  it('answers an unknown guide with a 404 page that lists the guides', async () => {
    for (const path of ['/docs/guides/nope', '/docs/guides/nope.md', '/docs/guides/architecture']) {
      const response = await app.api('GET', path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain('href="/docs/guides/queries"');
    }
  });

  it('answers HEAD like GET, with the headers and without the body', async () => {
    for (const path of ['/docs/guides', '/docs/guides/queries', '/docs/guides/queries.md']) {
      const [get, head] = [await app.api('GET', path), await app.api('HEAD', path)];
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(await head.text()).toBe('');
    }
  });

  it('the reference page links to the guides, and the API document it draws names guides, never a file of the repository', async () => {
    expect(hrefsOf(await (await app.api('GET', '/docs')).text())).toContain('docs/guides');
    const document = await (await app.api('GET', '/openapi.json')).text();
    expect(document.match(/\b(?:docs|src)\/[\w/.-]+\.(?:md|ts)\b|README\.md/g)).toBeNull();
    expect(document).toContain('[Queries](/docs/guides/queries)');
  });
});
