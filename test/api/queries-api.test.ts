import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { fencedBlocks } from '../support/markdown.ts';
import { createMonitor, startMonitorsApp } from '../support/monitors.ts';

describe.each(engines)('queries through the API on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    ({ app } = await startMonitorsApp(engine));
    app.reddit.subreddits.set('saas', 'public');
    app.reddit.subreddits.set('startups', 'public');
  });
  afterAll(() => app.close());

  it('a query with a syntax error is a 422 that points at the character and says what was expected, and creates nothing', async () => {
    const { token } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'w', subreddits: ['r/saas'], query: 'pricing OR' } });
    expect(response.status).toBe(422);
    const problem = await response.json();
    expect(problem).toMatchObject({ code: 'query.invalid', errors: [{ path: '/query', position: 11 }] });
    expect(problem.errors[0].message).toBe('query is not a valid query: at character 11: expected a word, a phrase or "(" after OR');
    expect((await (await app.api('GET', '/api/v1/monitors', { token })).json()).data).toEqual([]);
  });

  it('the error docs/api/queries.md shows for "title: api" is the one the server answers, code and words', async () => {
    const shown = fencedBlocks(readFileSync('docs/api/queries.md', 'utf8')).find((block) => block.info === 'json' && block.code.includes('"/query"'))!;
    const { token } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'w', subreddits: ['r/saas'], query: 'title: api' } });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject(JSON.parse(shown.code));
  });

  it('a query that could match without any of its words is refused, saying to add one', async () => {
    const { token } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'w', subreddits: ['r/saas'], query: '-hiring type:post' } });
    expect(response.status).toBe(422);
    expect((await response.json()).errors[0].message).toContain('add a word or phrase it must contain');
  });

  it('a monitor needs keywords or a query, on creation and after an edit', async () => {
    const { token } = await app.accountWithKey(10);
    const none = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'w', subreddits: ['r/saas'] } });
    expect(none.status).toBe(422);
    expect((await none.clone().json()).code).toBe('query.missing');
    expect((await none.json()).errors).toEqual([{ path: '/keywords', message: 'keywords must name at least one keyword, unless a query is given' }]);

    const monitor = await createMonitor(app, token, { subreddits: ['r/saas'], query: '"which tool" -hiring' });
    expect(monitor).toMatchObject({ keywords: [], query: '"which tool" -hiring', intent: null, min_relevance: 60 });
    const emptied = await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { query: null } });
    expect(emptied.status).toBe(422);
    const both = await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { query: null, keywords: ['pricing'] } });
    expect(await both.json()).toMatchObject({ keywords: ['pricing'], query: null });
  });

  it('a scrape with a bad query is refused before anything is held or charged', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/saas'], query: '(pricing' } });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      code: 'query.invalid',
      errors: [{ path: '/query', message: 'query is not a valid query: at character 1: "(" is never closed', position: 1 }],
    });
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
    expect(await ledgerSum(app.services.db, accountId)).toBe(10);
  });

  it('a scrape with a query searches Reddit for its words and is priced per word or phrase and subreddit, like keywords', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/saas', 'r/startups'], query: '("which tool" OR recommend) -hiring' },
      headers: { prefer: 'respond-async' },
    });
    expect(response.status).toBe(202);
    const { id, query, keywords } = await response.json();
    expect({ query, keywords }).toEqual({ query: '("which tool" OR recommend) -hiring', keywords: [] });
    await app.services.scrapeRunner.run(id);
    const searches = app.reddit.requests.filter((r) => r.path.endsWith('/search'));
    expect(searches.at(-1)!.query.q).toBe('"which tool" OR recommend');
    // Two subreddits × two things searched for (the excluded word is not searched for).
    expect(await app.services.credits.spendableBalance(accountId)).toBe(6);
    expect(await ledgerSum(app.services.db, accountId)).toBe(6);
  });
});
