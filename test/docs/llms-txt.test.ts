import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDES } from '../../src/modules/apidocs/apidocs.guides.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const linksOf = (text: string) => [...text.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);

/** /llms.txt touches no database, so one engine is enough. */
describe('/llms.txt, what an agent reads first', () => {
  let app: TestApp;
  let body: string;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { worker: false });
    const response = await app.api('GET', '/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    body = await response.text();
  });
  afterAll(() => app?.close());

  it('says what the service is, with its title and summary first, as llmstxt.org lays them out', () => {
    expect(body.split('\n')[0]).toBe('# subpilot');
    expect(body).toMatch(/^> A credit-billed HTTP API for Reddit work/m);
  });

  it('links the Markdown of every guide once, and every link resolves on this server', async () => {
    const links = linksOf(body);
    expect(links.filter((href) => href.startsWith('/docs/guides/')).sort()).toEqual(GUIDES.map((g) => `/docs/guides/${g.name}.md`).sort());
    for (const href of links.filter((h) => h.endsWith('.md'))) {
      const response = await app.api('GET', href);
      expect(response.status, href).toBe(200);
      expect(response.headers.get('content-type'), href).toBe('text/markdown; charset=utf-8');
      await response.text();
    }
    for (const href of ['/openapi.json', '/docs']) {
      expect(links).toContain(href);
      const response = await app.api('GET', href);
      expect(response.status, href).toBe(200);
      await response.text();
    }
    // The MCP endpoint is there, and asks for the key the text says it takes.
    expect(links).toContain('/mcp');
    const mcp = await app.api('POST', '/mcp', { body: {} });
    expect(mcp.status).toBe(401);
    await mcp.text();
  });

  it('gives absolute links on an instance with PUBLIC_URL, for an agent handed the text alone', async () => {
    const hosted = await startTestApp('sqlite', { worker: false, env: { PUBLIC_URL: 'https://subpilot.example.com/' } });
    try {
      const links = linksOf(await (await hosted.api('GET', '/llms.txt')).text());
      expect(links.length).toBe(GUIDES.length + 3);
      for (const href of links) expect(href).toMatch(/^https:\/\/subpilot\.example\.com\/(docs|openapi\.json|mcp)/);
    } finally {
      await hosted.close();
    }
  });
});
