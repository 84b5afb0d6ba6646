import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import type { FakeComment, FakePost } from '../support/fake-reddit.ts';

const hoursAgo = (h: number) => Math.floor(Date.now() / 1000) - h * 3600;
/** The page's text without tags, spaces folded, for reading sentences that wrap links. */
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/\s+/g, ' ');
/** The <li> of each result, in page order. */
const items = (html: string) => [...html.matchAll(/<li class="result[^"]*">([\s\S]*?)<\/li>/g)].map((m) => m[0]);

describe.each(engines)('the scrape results page shows comments as comments on %s', (engine) => {
  let app: TestApp;
  let post: FakePost;
  let quiet: FakePost;
  const c: Record<string, FakeComment> = {};

  beforeAll(async () => {
    app = await startTestApp(engine);
    const reddit = app.reddit;
    post = reddit.addPost({ subreddit: 'de', title: 'Über die Straße nach Köln', created_utc: hoursAgo(5) });
    quiet = reddit.addPost({ subreddit: 'de', title: 'Wetter heute', created_utc: hoursAgo(4) });
    c.street = reddit.addComment({ subreddit: 'de', body: 'Die Straße ist\n\ngesperrt, nimm die Umleitung.', link_id: post.id, author: 'anna', created_utc: hoursAgo(3) });
    c.cologne = reddit.addComment({ subreddit: 'de', body: 'Köln ist schön', link_id: quiet.id, created_utc: hoursAgo(2), score: 7 });
    c.long = reddit.addComment({ subreddit: 'de', body: `Köln ${'sehr '.repeat(100)}lang`, link_id: quiet.id, created_utc: hoursAgo(1) });
  });
  afterAll(() => app.close());

  async function member(credits = 20) {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail('comments');
    await browser.signUp(email);
    const { id: accountId } = await app.services.accounts.requireByEmail(email);
    await app.services.credits.grant(accountId, credits, 'test');
    const { token } = await app.services.keys.createKey(accountId, 'comments');
    const scrape = async (body: Record<string, unknown>) => {
      const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/de'], ...body } });
      expect(response.status).toBe(200);
      return (await response.json()) as { id: string };
    };
    return { browser, accountId, scrape };
  }

  it('gives a comment a badge, its own text, the post it is under and a link to itself, and counts posts and comments apart', async () => {
    const { browser, scrape } = await member();
    const { id } = await scrape({ keywords: ['straße', 'köln'], sources: ['posts', 'comments'] });
    const page = (await browser.get(`/dashboard/scrapes/${id}`)).body;
    expect(page).toContain('<h2>1 post and 3 comments</h2>');

    const [long, cologne, street, first] = items(page);
    const postPage = `https://www.reddit.com/r/de/comments/${post.id}/über_die_straße_nach_köln/`;
    expect(street).toContain('<span class="badge badge-comment">comment</span> <bdi>Die Straße ist gesperrt, nimm die Umleitung.</bdi>');
    expect(street).toContain(`on <a href="${postPage}" target="_blank" rel="noopener noreferrer"><bdi>Über die Straße nach Köln</bdi></a>`);
    expect(street).toContain(`<a href="${postPage}${c.street!.id}/" target="_blank" rel="noopener noreferrer">View comment</a>`);
    expect(street).toContain('<span class="result-by">u/<bdi>anna</bdi></span>');
    expect(text(street!)).toContain('· 1 point ·');
    // The comment's text is not presented as a post title.
    expect(street).not.toContain('result-title');
    expect(cologne).toContain(`on <a href="https://www.reddit.com/r/de/comments/${quiet.id}/wetter_heute/"`);
    expect(text(cologne!)).toContain('7 points');
    expect(text(long!)).toMatch(/Köln (sehr ){50,}sehr…/);
    expect(text(long!)).not.toContain('lang');

    // The post is marked too, since the list mixes both kinds, and keeps its title as its link.
    expect(first).toContain(`<span class="badge badge-post">post</span> <a href="${postPage}" target="_blank" rel="noopener noreferrer"><bdi>Über die Straße nach Köln</bdi></a>`);
  });

  it('counts what a filter leaves by kind, in the singular where there is one', async () => {
    const { browser, scrape } = await member();
    const { id } = await scrape({ keywords: ['straße', 'köln'], sources: ['posts', 'comments'] });
    const page = (await browser.get(`/dashboard/scrapes/${id}?keyword=stra%C3%9Fe`)).body;
    expect(page).toContain('<h2>2 of 4 results: 1 post and 1 comment</h2>');
    expect(items(page)).toHaveLength(2);
  });

  it('says only "posts" of a scrape that read no comments, and only "comments" of one that read no posts', async () => {
    const { browser, scrape } = await member();
    const posts = await scrape({ keywords: ['straße'] });
    const postsPage = (await browser.get(`/dashboard/scrapes/${posts.id}`)).body;
    expect(postsPage).toContain('<h2>1 post</h2>');
    expect(postsPage).not.toContain('badge-post');

    const comments = await scrape({ keywords: ['köln'], sources: ['comments'] });
    const commentsPage = (await browser.get(`/dashboard/scrapes/${comments.id}`)).body;
    expect(commentsPage).toContain('<h2>2 comments</h2>');
    expect(commentsPage).not.toContain('badge-post');
    const filtered = (await browser.get(`/dashboard/scrapes/${comments.id}?keyword=k%C3%B6ln&subreddit=r%2Fde`)).body;
    expect(filtered).toContain('<h2>2 of 2 comments</h2>');
  });

  it('the ledger line of each scrape counts posts and comments as the database holds them', async () => {
    const { browser, accountId, scrape } = await member();
    await scrape({ keywords: ['straße'] });
    await scrape({ keywords: ['straße', 'köln'], sources: ['posts', 'comments'] });
    await scrape({ keywords: ['straße'], sources: ['comments', 'posts'] });
    await scrape({ keywords: ['nothing here'], sources: ['comments'] });

    const stored = await app.database.db
      .selectFrom('scrapes')
      .select(['id', 'results'])
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .execute();
    const kinds = stored.map((row) => (JSON.parse(row.results!) as { type: string }[]).map((r) => r.type));
    expect(kinds.map((k) => [k.filter((t) => t === 'post').length, k.filter((t) => t === 'comment').length])).toEqual([
      [0, 0],
      [1, 1],
      [1, 3],
      [1, 0],
    ]);

    const ledger = text((await browser.get('/dashboard/credits')).body);
    const lines = [...ledger.matchAll(/Scrape of r\/de: ([^;]+?) charge/g)].map((m) => m[1]);
    expect(lines).toEqual(['0 comments', '1 post and 1 comment', '1 post and 3 comments', '1 post']);
  });
});
