import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/shared/errors.ts';
import { problemBody } from '../../src/shared/http/error-mapper.ts';
import { docsFor, problemDocsCodes, problemDocsPaths } from '../../src/shared/http/problem-docs.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/** Every source file's text, tests left out: where the codes the service answers are written. */
function sources(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !path.endsWith('problem-docs.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/** The answers used here are refused before any database is asked, so one engine is enough. */
describe('the `docs` member of problem bodies: the guide that explains the problem', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { worker: false });
  });
  afterAll(() => app?.close());

  it('leads to a section that exists, on a guide this server serves, for every code and family it names', async () => {
    const broken: string[] = [];
    for (const path of problemDocsPaths()) {
      const [page, anchor] = path.split('#') as [string, string | undefined];
      const response = await app.api('GET', page);
      const body = await response.text();
      if (response.status !== 200) broken.push(`${path} → ${response.status}`);
      else if (anchor && !body.includes(` id="${anchor}"`)) broken.push(`${path}: no such section`);
    }
    expect(broken).toEqual([]);
  });

  it('names only codes the service answers', () => {
    const text = sources().join('\n');
    expect(problemDocsCodes().filter((code) => !text.includes(`'${code}'`))).toEqual([]);
  });

  it('is in the answer itself, beside a `type` that stays the stable urn', async () => {
    const response = await app.api('GET', '/api/v1/balance');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: 'urn:subpilot:problem:auth.missing', code: 'auth.missing', docs: '/docs/guides/api#authentication' });
  });

  it('picks the exact code before its family, and is left out where no guide says more than the detail', () => {
    expect(docsFor('query.invalid')).toBe('/docs/guides/queries#errors');
    expect(docsFor('auth.insufficient_scope')).toBe('/docs/guides/keys#key-scopes-expiry-and-roll');
    expect(docsFor('auth.invalid_key')).toBe('/docs/guides/api#authentication');
    const notFound = problemBody(new AppError({ code: 'scrape.not_found', status: 404, message: 'No such scrape.' }));
    expect(Object.keys(notFound)).toEqual(['type', 'title', 'status', 'detail', 'code']);
  });
});
