import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const library = (file: string) => readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`));

/** The files the page names (stylesheets, scripts, icon), as the browser would resolve them from /docs. */
function assetsOf(page: string): string[] {
  return [...page.matchAll(/(?:href|src)="(docs\/assets\/[^"]+)"/g)].map((m) => `/${m[1]}`);
}

const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', png: 'image/png' };

/** The page touches no database, so one engine is enough. */
describe('GET /docs, the API reference page', () => {
  let app: TestApp;
  let page = '';
  beforeAll(async () => {
    app = await startTestApp('sqlite', { worker: false });
    page = await (await app.api('GET', '/docs')).text();
  });
  afterAll(() => app?.close());

  it('is an HTML page that needs no key, under a CSP that allows no inline or eval script', async () => {
    const response = await app.api('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(await response.text()).toContain('<main id="swagger-ui">');
  });

  it('names only relative URLs, so it loads from the origin that served it and from no other', () => {
    const urls = [...page.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
    expect(urls).toContain('openapi.json');
    expect(urls.filter((url) => /^(?:[a-z]+:|\/)/i.test(url))).toEqual([]);
    expect(page).not.toMatch(/<script>|<style>| style=/);
  });

  it('serves the Swagger UI files it names (stylesheet, script, icon) from node_modules, and its own two, cached for good under hashed names', async () => {
    const assets = assetsOf(page);
    expect(assets).toHaveLength(5);
    const bodies = new Map<string, Buffer>();
    for (const path of assets) {
      expect(path).toMatch(/^\/docs\/assets\/[a-z0-9-]+\.[0-9a-f]{12}\.(?:css|js|png)$/);
      const response = await app.api('GET', path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe(TYPES[path.slice(path.lastIndexOf('.') + 1)]);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      bodies.set(path.replace(/^.*\/|\.[0-9a-f]{12}/g, ''), Buffer.from(await response.arrayBuffer()));
    }
    expect(bodies.get('swagger-ui-bundle.js')!.equals(library('swagger-ui-bundle.js'))).toBe(true);
    expect(bodies.get('swagger-ui.css')!.equals(library('swagger-ui.css'))).toBe(true);
    expect(bodies.get('favicon-32x32.png')!.equals(library('favicon-32x32.png'))).toBe(true);
    expect(bodies.get('docs.js')!.toString()).toContain("url: 'openapi.json'");
  });

  it('answers HEAD like GET, with the headers and without the body', async () => {
    for (const path of ['/docs', assetsOf(page)[0]!]) {
      const [get, head] = [await app.api('GET', path), await app.api('HEAD', path)];
      expect(head.status, path).toBe(200);
      for (const name of ['content-type', 'content-length', 'cache-control', 'content-security-policy']) {
        expect(head.headers.get(name), `${path} ${name}`).toBe(get.headers.get(name));
      }
      expect(await head.text()).toBe('');
    }
  });

  it('a file name with another hash is a problem+json 404, so a stale page never gets a mismatched file', async () => {
    const response = await app.api('GET', '/docs/assets/swagger-ui-bundle.000000000000.js');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });

  it('is not itself an endpoint of the API description', async () => {
    const doc = await (await app.api('GET', '/openapi.json')).json();
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/docs'))).toEqual([]);
  });

  it('a 404 anywhere points to /docs and to /openapi.json', async () => {
    const response = await app.api('GET', '/api/v1/no-such-endpoint');
    expect(response.status).toBe(404);
    expect((await response.json()).detail).toBe('No endpoint matches GET on this path; see /docs (or /openapi.json) for the endpoints.');
  });
});
