import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { PRICES, startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';

const hoursAgo = (h: number) => Math.floor(Date.now() / 1000) - h * 3600;

/** The cells of each row of the Credits page's table. */
function ledgerCells(page: string) {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)![1]!;
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) => [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!));
}

/** The Credits page's rows as (link, description, type) read from the HTML. */
function ledgerRows(page: string) {
  return ledgerCells(page).map((cells) => ({
    href: /<a href="([^"]+)">/.exec(cells[1]!)?.[1] ?? null,
    description: cells[1]!.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").trim(),
    type: cells[2],
  }));
}

describe.each(engines)('the ledger explains itself, with Drafts and Publications pages, on %s', (engine) => {
  let app: PublishingApp;
  let account: ConnectedAccount;
  const ids = { scrape: '', draft: '', failedDraft: '', publication: '', refusedPublication: '' };

  beforeAll(async () => {
    app = await startPublishingApp(engine);
    app.reddit.posts.push({ id: 'lg1', subreddit: 'node', title: 'Which ORM for Postgres?', selftext: 'Asking for a friend.', created_utc: hoursAgo(1) });
    app.reddit.posts.push({ id: 'lg2', subreddit: 'typescript', title: 'Drizzle or Kysely?', selftext: 'Both look fine.', created_utc: hoursAgo(1) });
    app.reddit.subreddits.set('secretclub', 'private');
    account = await app.connectedAccount(100, { username: 'ledgerly' });
    const api = async (path: string, body: unknown) => (await app.api('POST', path, { token: account.token, body })).json();

    ids.scrape = (await api('/api/v1/scrape', { subreddits: ['r/node', 'r/secretclub'], keywords: ['orm'] })).id;
    ids.draft = (await api('/api/v1/generate', { type: 'reply', post_id: 't3_lg1', instructions: 'Suggest Kysely' })).id;
    app.llm.failNext(500);
    ids.failedDraft = (await api('/api/v1/generate', { type: 'post', subreddit: 'r/node', instructions: 'Five tips' })).generation_id;
    ids.publication = (await api('/api/v1/publish', { generation_id: ids.draft })).id;
    app.reddit.user.rejectNext('THREAD_LOCKED', 'that thread is locked', 'parent');
    // In another thread and subreddit than the draft's, so that the refusal is Reddit's, not a rail's.
    const refused = await api('/api/v1/publish', { type: 'comment', parent: 't3_lg2', body: 'Try Drizzle too.' });
    expect(refused.code).toBe('publish.rejected');
    ids.refusedPublication = refused.publication_id;
    expect(Object.values(ids).every((id) => /^(scr|gen|pub)_/.test(id))).toBe(true);
  });
  afterAll(() => app.close());

  it('every ledger row says in one line what it was for and links to the page of what it paid for; a refused publication has none', async () => {
    const rows = ledgerRows((await account.dashboard.get('/dashboard/credits')).body);
    expect(rows).toEqual([
      { type: 'charge', href: `/dashboard/publications/${ids.publication}`, description: 'Publication of a comment on t3_lg1' },
      { type: 'refund', href: `/dashboard/drafts/${ids.failedDraft}`, description: expect.stringMatching(/^Refund for the draft of a post for r\/node: \S/) },
      { type: 'charge', href: `/dashboard/drafts/${ids.failedDraft}`, description: 'Draft of a post for r/node' },
      { type: 'charge', href: `/dashboard/drafts/${ids.draft}`, description: 'Draft of a reply in r/node' },
      {
        type: 'charge',
        href: `/dashboard/scrapes/${ids.scrape}`,
        description: 'Scrape of r/node, r/secretclub: 1 post; r/secretclub unavailable (private), not charged',
      },
      { type: 'grant', href: null, description: 'Operator grant: test' },
    ]);
  });

  it('every row says through which interface the call it paid for came, and a grant, which no call made, shows a dash', async () => {
    const page = (await account.dashboard.get('/dashboard/credits')).body;
    expect(page).toContain('<th>Key</th><th>Via</th>');
    const via = ledgerCells(page).map((cells) => cells[6]!.replace(/<[^>]+>/g, '').trim());
    expect(via).toEqual([...Array(5).fill('API'), '—']);
  });

  it('a refund row never says "nothing was charged" or "refunded" next to the charge it reverses', async () => {
    const page = (await account.dashboard.get('/dashboard/credits')).body;
    expect(page).not.toMatch(/nothing was charged/i);
    for (const row of ledgerRows(page).filter((r) => r.type === 'refund')) expect(row.description).not.toMatch(/refunded|charged/i);
  });

  it('GET /api/v1/usage keeps its fields and adds the same description', async () => {
    const usage = await (await app.api('GET', '/api/v1/usage', { token: account.token })).json();
    expect(usage.data[0]).toMatchObject({
      type: 'charge',
      amount: -PRICES.publish,
      scrape_id: null,
      generation_id: null,
      publication_id: ids.publication,
      reason: null,
      description: 'Publication of a comment on t3_lg1',
      via: 'api',
    });
    expect(usage.data.some((row: { publication_id: string | null }) => row.publication_id === ids.refusedPublication)).toBe(false);
    expect(usage.data.at(-1)).toMatchObject({ type: 'grant', reason: 'test', description: 'Operator grant: test', key: null, via: null });
  });

  it('the Drafts page lists the account\'s drafts newest first, each linking to its page', async () => {
    const page = await account.dashboard.get('/dashboard/drafts');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<a href="/dashboard/drafts" aria-current="page">Drafts</a>');
    expect(page.body.indexOf(`/dashboard/drafts/${ids.failedDraft}`)).toBeLessThan(page.body.indexOf(`/dashboard/drafts/${ids.draft}`));
    expect(page.body).toContain('<div class="table-scroll table-cards"><table>');
  });

  it('a draft\'s page shows its text, its instructions and where it was meant to go', async () => {
    const page = await account.dashboard.get(`/dashboard/drafts/${ids.draft}`);
    expect(page.status).toBe(200);
    const draft = await (await app.api('GET', `/api/v1/generations/${ids.draft}`, { token: account.token })).json();
    expect(page.body).toContain(draft.body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'));
    expect(page.body).toContain('Suggest Kysely');
    expect(page.body).toContain('Reply in <bdi>r/node</bdi>');
    expect(page.body).toContain('https://www.reddit.com/comments/lg1');
    const failed = await account.dashboard.get(`/dashboard/drafts/${ids.failedDraft}`);
    expect(failed.body).toContain('badge-failed');
    expect(failed.body).toContain('its charge was refunded');
  });

  it('the Publications page lists publications, and a publication\'s page shows its text, its draft and Reddit\'s link', async () => {
    const list = await account.dashboard.get('/dashboard/publications');
    expect(list.status).toBe(200);
    expect(list.body).toContain(`/dashboard/publications/${ids.publication}`);
    expect(list.body).toContain(`/dashboard/publications/${ids.refusedPublication}`);
    const page = await account.dashboard.get(`/dashboard/publications/${ids.publication}`);
    expect(page.body).toContain('badge-published');
    expect(page.body).toContain(`<a href="/dashboard/drafts/${ids.draft}">`);
    expect(page.body).toMatch(/<a href="https:\/\/www\.reddit\.com\/r\/[^"]+" target="_blank" rel="noopener noreferrer">t1_/);
    expect(page.body).toContain('as u/<bdi>ledgerly</bdi>');
    const refused = await account.dashboard.get(`/dashboard/publications/${ids.refusedPublication}`);
    expect(refused.body).toContain('Try Drizzle too.');
    expect(refused.body).toContain('THREAD_LOCKED');
  });

  it('another account sees none of it: its lists are empty and the ids are the dashboard\'s 404 page', async () => {
    const other = await app.connectedAccount(0, { connect: false });
    for (const path of [`/dashboard/drafts/${ids.draft}`, `/dashboard/publications/${ids.publication}`]) {
      const page = await other.dashboard.get(path);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.body).toContain('Page not found');
    }
    expect((await other.dashboard.get('/dashboard/drafts')).body).toContain('No drafts yet');
    expect((await other.dashboard.get('/dashboard/publications')).body).toContain('No publications yet');
  });

  it('the Drafts list pages with a cursor, and a forged cursor is refused', async () => {
    await app.services.credits.grant(account.accountId, 25 * PRICES.generate, 'more drafts');
    const api = (body: unknown) => app.api('POST', '/api/v1/generate', { token: account.token, body });
    for (let i = 0; i < 25; i++) expect((await api({ type: 'reply', post_id: 't3_lg1', instructions: `Tip ${i}` })).status).toBe(200);
    const first = (await account.dashboard.get('/dashboard/drafts')).body;
    expect(first).not.toContain(`/dashboard/drafts/${ids.draft}"`);
    const next = /href="(\/dashboard\/drafts\?cursor=[^"]+)"/.exec(first)![1]!;
    const second = (await account.dashboard.get(next)).body;
    expect(second).toContain(`/dashboard/drafts/${ids.draft}"`);
    expect(second).toContain('<a href="/dashboard/drafts">Newest</a>');
    expect((await account.dashboard.get('/dashboard/drafts?cursor=bm9wZQ')).status).toBe(400);
  });
});
