import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

describe.each(engines)('request validation comes after the key and before credits on %s', (engine) => {
  let app: TestApp;
  let token: string;
  let accountId: string;
  let brokeToken: string;

  beforeAll(async () => {
    app = await startTestApp(engine);
    ({ token, accountId } = await app.accountWithKey(50));
    ({ token: brokeToken } = await app.accountWithKey(0));
  });
  afterAll(async () => {
    // Nothing in this suite may charge: every request below is refused.
    expect(await app.services.credits.spendableBalance(accountId)).toBe(50);
    await app.close();
  });

  const scrape = (body: unknown, headers: Record<string, string> = {}, key = token) =>
    app.api('POST', '/api/v1/scrape', { token: key, body, headers });

  async function expectProblem(response: Response, status: number) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = await response.json();
    expect(body.status).toBe(status);
    expect(body.detail.length).toBeGreaterThan(10);
    return body;
  }

  it('malformed JSON is a 400', async () => {
    await expectProblem(await scrape('{"subreddits": ['), 400);
  });

  it('a body that is not JSON is a 415', async () => {
    await expectProblem(await scrape('subreddits=r/node', { 'content-type': 'application/x-www-form-urlencoded' }), 415);
  });

  it('a POST without a body is a 415', async () => {
    await expectProblem(await app.api('POST', '/api/v1/scrape', { token }), 415);
  });

  it('a body over 64 KiB is a 413', async () => {
    const keywords = Array.from({ length: 20 }, () => 'x'.repeat(4000));
    await expectProblem(await scrape({ subreddits: ['r/node'], keywords }), 413);
  });

  it.each([
    ['subreddits missing', { keywords: ['a'] }, '/subreddits'],
    ['keywords missing', { subreddits: ['r/node'] }, '/keywords'],
    ['a subreddit of another site', { subreddits: ['https://twitter.com/r/node'], keywords: ['a'] }, '/subreddits/0'],
    ['a subreddit of one character', { subreddits: ['r/a'], keywords: ['a'] }, '/subreddits/0'],
    ['a subreddit of 22 characters', { subreddits: [`r/${'a'.repeat(22)}`], keywords: ['a'] }, '/subreddits/0'],
    ['a subreddit starting with _', { subreddits: ['r/_node'], keywords: ['a'] }, '/subreddits/0'],
    ['a subreddit with a dash', { subreddits: ['r/no-de'], keywords: ['a'] }, '/subreddits/0'],
    ['no subreddits', { subreddits: [], keywords: ['a'] }, '/subreddits'],
    ['21 subreddits', { subreddits: Array.from({ length: 21 }, (_, i) => `r/sub${i}`), keywords: ['a'] }, '/subreddits'],
    ['a blank keyword', { subreddits: ['r/node'], keywords: ['   '] }, '/keywords/0'],
    ['a keyword of 101 characters', { subreddits: ['r/node'], keywords: ['k'.repeat(101)] }, '/keywords/0'],
    ['21 keywords', { subreddits: ['r/node'], keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) }, '/keywords'],
    ['an unknown field', { subreddits: ['r/node'], keywords: ['a'], subredit: 'typo' }, '/subredit'],
    ['sort of an unknown kind', { subreddits: ['r/node'], keywords: ['a'], sort: 'hot' }, '/sort'],
    ['a limit over 500', { subreddits: ['r/node'], keywords: ['a'], limit: 501 }, '/limit'],
    ['a limit given as a string', { subreddits: ['r/node'], keywords: ['a'], limit: '5' }, '/limit'],
    ['a body that is an array', [{ subreddits: ['r/node'] }], '/'],
  ])('%s is a 422 listing the path', async (_label, body, path) => {
    const problem = await expectProblem(await scrape(body), 422);
    expect(problem.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    for (const error of problem.errors) expect(error.message).toEqual(expect.any(String));
  });

  it.each([
    [
      'a link to a user instead of a subreddit',
      { subreddits: ['https://www.reddit.com/user/spez?utm_source=share'], keywords: ['a'] },
      {
        path: '/subreddits/0',
        message:
          'subreddits[0] must be a subreddit: r/name, name, /r/name or a link such as https://www.reddit.com/r/name, its name 2–21 letters, ' +
          'digits or _, not starting with _ (got "https://www.reddit.com/user/spez")',
      },
    ],
    ['a sort of another name', { subreddits: ['r/node'], keywords: ['a'], sort: 'newest' }, { path: '/sort', message: 'sort must be one of new, relevance, top (got "newest")' }],
    [
      'a time given as a duration',
      { subreddits: ['r/node'], keywords: ['a'], time: '24h' },
      { path: '/time', message: 'time must be one of hour, day, week, month, year, all (got "24h")' },
    ],
    [
      'subreddit for subreddits',
      { subreddits: ['r/node'], keywords: ['a'], subreddit: 'r/deno' },
      { path: '/subreddit', message: 'unknown field `subreddit` (did you mean `subreddits`?)' },
    ],
  ])('%s is one message that says what to send instead', async (_label, body, error) => {
    const problem = await expectProblem(await scrape(body), 422);
    expect(problem.errors).toEqual([error]);
    expect(problem.detail).toBe(`The request body is not valid: ${error.message}.`);
  });

  it('an invalid body from an account with no credits is a 422, not a 402 (validation comes first)', async () => {
    await expectProblem(await scrape({ subreddits: ['r/b'], keywords: ['a'] }, {}, brokeToken), 422);
  });

  it('an unknown /api/v1/ route is a problem+json 404', async () => {
    await expectProblem(await app.api('GET', '/api/v1/nothing-here', { token }), 404);
  });

  it('a bad cursor is a 400', async () => {
    await expectProblem(await app.api('GET', '/api/v1/usage?cursor=bm9wZQ', { token }), 400);
  });
});
