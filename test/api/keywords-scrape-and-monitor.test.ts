import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { postThing } from '../support/fake-reddit-listings.ts';
import { createMonitor, cycle, startMonitorsApp, storedMatches, type PinnedClock } from '../support/monitors.ts';

/*
 * A scrape re-checks what Reddit's search sends and a monitor matches what the listings send, through
 * one matcher: the same keywords or query find the same posts and comments, Unicode folds and all.
 * Each case runs one monitor and one scrape with the same rule over the same things and compares them.
 */
describe.each(engines)('keywords and queries in a scrape and in a monitor on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let token: string;
  let cases = 0;
  beforeAll(async () => {
    ({ app, clock } = await startMonitorsApp(engine));
    ({ token } = await app.accountWithKey(1000));
  });
  afterEach(() => {
    app.reddit.extraChildren = [];
  });
  afterAll(() => app.close());

  type NewPost = { title: string; selftext?: string; author?: string; flair?: string };
  type Comment = string | { body: string; author?: string };

  /**
   * What a monitor with `rule` (keywords, or `{ query }`) stores, checked to be what a scrape with it
   * returns: for each thing found, its text (a post's title, a comment's body) → matched_keywords.
   * `match`: both in that mode; left out, both take their default.
   */
  async function found(rule: string[] | { query: string }, posts: NewPost[], comments: Comment[], match?: 'word' | 'phrase') {
    const subreddit = `agree${++cases}`;
    app.reddit.subreddits.set(subreddit, 'public');
    const asked = { ...(Array.isArray(rule) ? { keywords: rule } : rule), ...(match ? { match } : {}) };
    const monitor = await createMonitor(app, token, { subreddits: [`r/${subreddit}`], ...asked, sources: ['posts', 'comments'] });
    await cycle(app);
    clock.advance(30);
    const written = posts.map((post) => app.reddit.addPost({ subreddit, ...post, created_utc: clock.seconds() }));
    const text = new Map(written.map((post) => [`t3_${post.id}`, post.title]));
    for (const comment of comments) {
      const { body, author } = typeof comment === 'string' ? { body: comment, author: undefined } : comment;
      text.set(`t1_${app.reddit.addComment({ subreddit, body, author, created_utc: clock.seconds() }).id}`, body);
    }
    clock.advance(30);
    await cycle(app);
    const rows = await storedMatches(app, monitor.id);
    const byMonitor = Object.fromEntries(rows.map((row) => [text.get(row.reddit_id), JSON.parse(row.matched_keywords) as string[]]));

    // The fake's search compares lower-cased text; Reddit's own is fuzzier. Every post is in its answer, so the re-check decides.
    app.reddit.extraChildren = written.map((post) => ({ kind: 't3', data: postThing(post) }));
    const accepted = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: [`r/${subreddit}`], ...asked, sources: ['posts', 'comments'], time: 'day' },
      headers: { prefer: 'respond-async' },
    });
    expect(accepted.status).toBe(202);
    const { id } = (await accepted.json()) as { id: string };
    await app.services.scrapeRunner.run(id);
    const scrape = (await (await app.api('GET', `/api/v1/scrapes/${id}`, { token })).json()) as {
      status: string;
      results: { id: string; matched_keywords: string[] }[];
    };
    expect(scrape.status).toBe('completed');
    const byScrape = Object.fromEntries(scrape.results.map((result) => [text.get(result.id), result.matched_keywords]));
    expect(byScrape).toEqual(byMonitor);
    return byMonitor;
  }

  it('a scrape for straße finds a post and comments that say STRASSE or STRAẞE, as a monitor does', async () => {
    expect(await found(['straße', 'gesperrt'], [{ title: 'GESPERRT: die STRASSE' }], ['Die STRAẞE ist zu', 'eine Strase'])).toEqual({
      'GESPERRT: die STRASSE': ['straße', 'gesperrt'],
      'Die STRAẞE ist zu': ['straße'],
    });
  });

  it('a scrape for İstanbul finds istanbul and one for izmir finds İZMİR (the dotted capital I), as a monitor does', async () => {
    expect(await found(['İstanbul', 'izmir'], [{ title: 'flights to istanbul' }], ['İZMİR by night', 'ISTANBUL'])).toEqual({
      'flights to istanbul': ['İstanbul'],
      'İZMİR by night': ['izmir'],
      ISTANBUL: ['İstanbul'],
    });
  });

  it('by default a scrape for api finds the word and not rapid, as a monitor does; asked for phrases, both find rapid', async () => {
    const posts = [{ title: 'A rapid prototype' }, { title: 'The API, finally' }];
    expect(await found(['api'], posts, ['our api docs', 'capital'])).toEqual({ 'The API, finally': ['api'], 'our api docs': ['api'] });
    expect(await found(['api'], posts, ['our api docs', 'capital'], 'phrase')).toEqual({
      'A rapid prototype': ['api'],
      'The API, finally': ['api'],
      'our api docs': ['api'],
      capital: ['api'],
    });
  });

  it('a scrape for οδος, ending in a final sigma, finds it inside ΟΔΟΣΗΜΑΝΣΗ in phrase mode, as a monitor does', async () => {
    expect(await found(['οδος'], [{ title: 'ΟΔΟΣΗΜΑΝΣΗ στην πόλη' }], ['μια ΟΔΟΣ', 'οδηγός'], 'phrase')).toEqual({
      'ΟΔΟΣΗΜΑΝΣΗ στην πόλη': ['οδος'],
      'μια ΟΔΟΣ': ['οδος'],
    });
  });

  it('a scrape for machine learning finds it across a run of whitespace, but not from a post’s title into its text, as a monitor does', async () => {
    const posts = [
      { title: 'Notes', selftext: 'all about Machine\n\t Learning.' },
      { title: 'I love machine', selftext: 'learning' },
    ];
    expect(await found(['machine learning'], posts, ['MACHINE    learning rocks', 'machinelearning'])).toEqual({
      Notes: ['machine learning'],
      'MACHINE    learning rocks': ['machine learning'],
    });
  });

  it('a query with a phrase, OR, a NOT and a title: field finds the same posts and comments in a scrape as in a monitor', async () => {
    const posts = [
      { title: 'Which tool for Reddit alerts?', selftext: 'need monitoring' },
      { title: 'Hiring: which tool engineer', selftext: 'monitoring team' },
      { title: 'Weekly thread', selftext: 'which tool do you use for alerts' },
    ];
    const comments = ['which tool gives alerts for comments?', 'alerts are noisy'];
    expect(await found({ query: '"which tool" (alerts OR monitoring) -hiring' }, posts, comments)).toEqual({
      'Which tool for Reddit alerts?': ['which tool', 'alerts', 'monitoring'],
      'Weekly thread': ['which tool', 'alerts'],
      'which tool gives alerts for comments?': ['which tool', 'alerts'],
    });
    expect(await found({ query: 'title:"which tool" alerts' }, posts, comments)).toEqual({
      'Which tool for Reddit alerts?': ['which tool', 'alerts'],
    });
  });

  it('author:, type: and flair: narrow a query alike in a scrape and a monitor', async () => {
    const posts = [
      { title: 'Pricing question', author: 'Founder_Jo', flair: 'Question' },
      { title: 'Pricing update', author: 'someone', flair: 'News' },
    ];
    const comments = [{ body: 'pricing is steep', author: 'founder_jo' }, 'pricing again'];
    expect(await found({ query: 'pricing author:founder_jo' }, posts, comments)).toEqual({
      'Pricing question': ['pricing'],
      'pricing is steep': ['pricing'],
    });
    expect(await found({ query: 'pricing type:comment' }, posts, comments)).toEqual({ 'pricing is steep': ['pricing'], 'pricing again': ['pricing'] });
    expect(await found({ query: 'pricing flair:question' }, posts, comments)).toEqual({ 'Pricing question': ['pricing', 'question'] });
  });
});
