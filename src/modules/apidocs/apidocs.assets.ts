import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentSecurityPolicy, PAGE_SECURITY_HEADERS } from '../../shared/http/page-security.ts';

/** The files of /docs and /docs/guides: the reference's library and ours, served under /docs/assets/. */

const require = createRequire(import.meta.url);

export interface Asset {
  /** The name it is served under, carrying a hash of its content (served `immutable`: apidocs.routes.ts). */
  name: string;
  type: string;
  body: Buffer;
}

function asset(path: string, type: string): Asset {
  const body = readFileSync(path);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const file = basename(path);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, type, body };
}

const own = (name: string) => fileURLToPath(new URL(`./public/${name}`, import.meta.url));

/** Read once, when the server first loads this module: the library's prebuilt browser files and ours. */
export const ASSETS = {
  libraryCss: asset(require.resolve('swagger-ui-dist/swagger-ui.css'), 'text/css; charset=utf-8'),
  libraryJs: asset(require.resolve('swagger-ui-dist/swagger-ui-bundle.js'), 'text/javascript; charset=utf-8'),
  css: asset(own('docs.css'), 'text/css; charset=utf-8'),
  js: asset(own('docs.js'), 'text/javascript; charset=utf-8'),
  guidesCss: asset(own('guides.css'), 'text/css; charset=utf-8'),
  // Named by the pages, so the browser does not ask for /favicon.ico, a 404.
  icon: asset(require.resolve('swagger-ui-dist/favicon-32x32.png'), 'image/png'),
};

/**
 * The dashboard's policy with one addition: images may be data: URLs, which is how Swagger UI's
 * stylesheet draws its arrows and icons. Its default-src 'self' keeps /openapi.json and the "Try it
 * out" calls on this origin, and nowhere else. The guides are served under the same policy: no
 * script or style of a document can run or apply there.
 */
export const SECURITY_HEADERS = { ...PAGE_SECURITY_HEADERS, 'content-security-policy': contentSecurityPolicy({ imageSources: ['data:'] }) };
