import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';

const T0 = Date.parse('2026-11-23T08:00:00.000Z');
const HOUR = 3_600_000;

describe.each(engines)('scrape and the subreddit directory on %s', (engine) => {
  let app: TestApp;
  let now = T0;
  beforeAll(async () => {
    app = await startTestApp(engine, { overrides: { clock: () => new Date(now) } });
    const created = Math.floor(T0 / 1000) - 3600;
    app.reddit.posts.push(
      { id: 'ts1', subreddit: 'typescript', title: 'A saas in TypeScript', created_utc: created },
      { id: 'nd1', subreddit: 'node', title: 'saas on node', created_utc: created },
      { id: 'nf1', subreddit: 'Spicy', title: 'saas after dark', created_utc: created, over_18: true },
    );
    app.reddit.subreddits.set('secretclub', 'private');
    app.reddit.subreddits.set('gone', 'banned');
    app.reddit.subreddits.set('edgy', 'quarantined');
    app.reddit.subreddits.set('hushed', 'forbidden');
    app.reddit.nsfwSubreddits.add('spicy');
  });
  afterAll(() => app.close());

  const scrape = async (token: string, body: unknown) => app.api('POST', '/api/v1/scrape', { token, body });
  const directoryCalls = () => app.reddit.requests.filter((r) => r.path === '/api/info' && r.query.sr_name !== undefined);
  const ledgerMatches = async (accountId: string) => {
    const balance = await app.services.credits.spendableBalance(accountId);
    expect(await ledgerSum(app.services.db, accountId)).toBe(balance);
    return balance;
  };

  it('does not charge a missing subreddit searched together with a real one, and names it unavailable', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const response = await scrape(token, { subreddits: ['r/typescript', 'r/doesnotexist'], keywords: ['saas'] });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.unavailable).toEqual([{ subreddit: 'r/doesnotexist', reason: 'not_found' }]);
    expect(body.credits).toEqual({ charged: 1, balance: 9 });
    expect(body.results.map((r: { id: string }) => r.id)).toEqual(['t3_ts1']);
    expect(await ledgerMatches(accountId)).toBe(9);
    expect(directoryCalls()).toHaveLength(1);
    expect(app.reddit.requests.filter((r) => r.path.endsWith('/search')).map((r) => r.path)).toEqual(['/r/typescript/search']);
  });

  it('asks Reddit nothing about subreddits it checked less than 24 hours ago, and refreshes them after', async () => {
    const { token } = await app.accountWithKey(10);
    const before = directoryCalls().length;
    now = T0 + 23 * HOUR;
    const again = await (await scrape(token, { subreddits: ['r/typescript', 'r/doesnotexist'], keywords: ['saas'] })).json();
    expect(again.credits.charged).toBe(1);
    expect(directoryCalls()).toHaveLength(before);
    now = T0 + 25 * HOUR;
    await scrape(token, { subreddits: ['r/typescript', 'r/doesnotexist'], keywords: ['saas'] });
    expect(directoryCalls()).toHaveLength(before + 1);
    expect(directoryCalls().at(-1)!.query.sr_name!.split(',').sort()).toEqual(['doesnotexist', 'typescript']);
  });

  it('describes every requested subreddit in one directory request and probes only the ones it cannot settle', async () => {
    const { token, accountId } = await app.accountWithKey(20);
    const before = app.reddit.requests.length;
    const response = await scrape(token, {
      subreddits: ['r/node', 'r/secretclub', 'r/gone', 'r/edgy', 'r/hushed', 'r/nowhere'],
      keywords: ['saas'],
    });
    const body = await response.json();
    expect(body.unavailable).toEqual([
      { subreddit: 'r/secretclub', reason: 'private' },
      { subreddit: 'r/gone', reason: 'banned' },
      { subreddit: 'r/edgy', reason: 'quarantined' },
      { subreddit: 'r/hushed', reason: 'forbidden' },
      { subreddit: 'r/nowhere', reason: 'not_found' },
    ]);
    expect(body.credits).toEqual({ charged: 1, balance: 19 });
    expect(await ledgerMatches(accountId)).toBe(19);
    const calls = app.reddit.requests.slice(before).map((r) => r.path);
    // One /api/info for all six, an about page for the three it leaves open (banned and missing ones are
    // left out, a forbidden one comes bare), one search.
    expect(calls.filter((p) => p === '/api/info')).toHaveLength(1);
    expect(calls.filter((p) => p.endsWith('/about')).sort()).toEqual(['/r/gone/about', '/r/hushed/about', '/r/nowhere/about']);
    expect(calls.filter((p) => p.endsWith('/search'))).toEqual(['/r/node/search']);
  });

  it('says forbidden, not private, when Reddit refuses a subreddit without a reason', async () => {
    const { token } = await app.accountWithKey(5);
    const body = await (await scrape(token, { subreddits: ['r/hushed'], keywords: ['saas'] })).json();
    expect(body).toMatchObject({ status: 'completed', unavailable: [{ subreddit: 'r/hushed', reason: 'forbidden' }] });
    expect(body.credits.charged).toBe(0);
  });

  it('searches an NSFW subreddit only with include_nsfw, and otherwise lists it as nsfw without charging it', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const without = await (await scrape(token, { subreddits: ['r/spicy', 'r/node'], keywords: ['saas'] })).json();
    expect(without.unavailable).toEqual([{ subreddit: 'r/spicy', reason: 'nsfw' }]);
    expect(without.credits.charged).toBe(1);
    const withNsfw = await (await scrape(token, { subreddits: ['r/spicy'], keywords: ['saas'], include_nsfw: true })).json();
    expect(withNsfw.unavailable).toEqual([]);
    expect(withNsfw.results.map((r: { id: string }) => r.id)).toEqual(['t3_nf1']);
    expect(withNsfw.credits.charged).toBe(1);
    expect(await ledgerMatches(accountId)).toBe(8);
  });

  it('keeps one directory row per subreddit when many scrapes refresh it at once', async () => {
    const { token } = await app.accountWithKey(50);
    now = T0 + 100 * HOUR;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => scrape(token, { subreddits: ['r/node', 'r/Fresh_One'], keywords: ['saas'] })),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    const rows = await app.services.db.selectFrom('subreddits').selectAll().where('name', 'in', ['node', 'fresh_one']).execute();
    expect(rows.map((r) => [r.name, r.state]).sort()).toEqual([['fresh_one', 'not_found'], ['node', 'ok']]);
  });
});
