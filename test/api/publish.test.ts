import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { insertMatches } from '../support/monitor-rows.ts';
import { createMonitor } from '../support/monitors.ts';
import { PRICES, startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';

const hoursAgo = (h: number) => Math.floor(Date.now() / 1000) - h * 3600;

describe.each(engines)('POST /api/v1/publish on %s', (engine) => {
  let app: PublishingApp;
  beforeAll(async () => {
    app = await startPublishingApp(engine);
    app.reddit.posts.push({ id: 'p1', subreddit: 'node', title: 'Which query builder?', selftext: 'We use raw SQL.', created_utc: hoursAgo(1) });
  });
  afterAll(() => app.close());

  const publish = (account: ConnectedAccount, body: unknown, headers: Record<string, string> = {}) =>
    app.api('POST', '/api/v1/publish', { token: account.token, body, headers });
  const ledgerMatches = async (account: ConnectedAccount) =>
    expect(await ledgerSum(app.services.db, account.accountId)).toBe(await account.balance());
  let n = 0;
  // Each under a post of its own: one reply per thread is a rail (test/api/publish-rails.test.ts), not what these test.
  const comment = (text?: string) => {
    const k = ++n;
    return { type: 'comment', parent: `t3_c${k}`, body: text ?? `A unique comment ${k}` };
  };

  it('end to end: connect, scrape, generate a reply, publish it: one comment on Reddit, three charges', async () => {
    const account = await app.connectedAccount(100, { username: 'alice' });
    const page = await account.dashboard.get('/dashboard/connections');
    expect(page.body).toMatch(/u\/(<bdi>)?alice\b/); // the name may be isolated from bidirectional text

    const scrape = await (await app.api('POST', '/api/v1/scrape', { token: account.token, body: { subreddits: ['r/node'], keywords: ['query builder'] } })).json();
    expect(scrape.results[0].id).toBe('t3_p1');
    const draft = await (await app.api('POST', '/api/v1/generate', { token: account.token, body: { type: 'reply', post_id: 't3_p1', instructions: 'Suggest Kysely' } })).json();
    const before = app.reddit.user.comments.length;

    const response = await publish(account, { generation_id: draft.id });
    expect(response.status).toBe(200);
    const publication = await response.json();
    expect(publication.id).toMatch(/^pub_/);
    expect(publication).toMatchObject({ status: 'published', type: 'comment', generation_id: draft.id });
    expect(publication.reddit.id).toMatch(/^t1_/);
    expect(publication.reddit.permalink).toMatch(/^https:\/\/www\.reddit\.com\/r\//);
    const comments = app.reddit.user.comments.slice(before);
    expect(comments).toEqual([{ id: publication.reddit.id, thing_id: 't3_p1', text: draft.body, author: 'alice' }]);
    expect(publication.credits).toEqual({ charged: PRICES.publish, balance: 100 - 1 - PRICES.generate - PRICES.publish });
    expect(await account.balance()).toBe(100 - 1 - PRICES.generate - PRICES.publish);
    await ledgerMatches(account);
    const usage = await (await app.api('GET', '/api/v1/usage', { token: account.token })).json();
    expect(usage.data[0]).toMatchObject({ type: 'charge', amount: -PRICES.publish, publication_id: publication.id });
    const stored = await (await app.api('GET', `/api/v1/publications/${publication.id}`, { token: account.token })).json();
    expect(stored.reddit).toEqual(publication.reddit);
  });

  it('a draft written for a monitor match marks the match published with its publication once Reddit accepts it, not before', async () => {
    const account = await app.connectedAccount(100);
    const draft = await (await app.api('POST', '/api/v1/generate', { token: account.token, body: { type: 'reply', post_id: 't3_p1', instructions: 'Help' } })).json();
    const monitor = await createMonitor(app, account.token, { subreddits: ['r/node'], keywords: ['kysely'] });
    await insertMatches(app.services.db, { monitorId: monitor.id, accountId: account.accountId, count: 1 });
    const match = () => app.services.db.selectFrom('monitor_matches').select(['status', 'publication_id']).where('monitor_id', '=', monitor.id).executeTakeFirstOrThrow();
    await app.services.db.updateTable('monitor_matches').set({ draft_id: draft.id, status: 'drafted' }).where('monitor_id', '=', monitor.id).execute();

    app.reddit.user.rejectNext('THREAD_LOCKED', 'that thread is locked', 'parent');
    expect((await publish(account, { generation_id: draft.id })).status).toBe(422);
    expect(await match()).toEqual({ status: 'drafted', publication_id: null });
    const publication = await (await publish(account, { generation_id: draft.id })).json();
    expect(publication.status).toBe('published');
    expect(await match()).toEqual({ status: 'published', publication_id: publication.id });
    await ledgerMatches(account);
  });

  it('a publication keeps no content_hash: the same-text rail reads text_hash, and nothing read the other', async () => {
    const tables = await app.services.db.introspection.getTables();
    const columns = tables.find((table) => table.name === 'publications')!.columns.map((column) => column.name);
    expect(columns).toContain('text_hash');
    expect(columns).not.toContain('content_hash');
  });

  it('a self post goes to /api/submit with kind=self, the title and the text', async () => {
    const account = await app.connectedAccount(20);
    const response = await publish(account, { type: 'post', subreddit: 'r/node', title: 'Kysely tips', body: 'Use it.' });
    expect(response.status).toBe(200);
    expect((await response.json()).reddit.id).toMatch(/^t3_/);
    expect(app.reddit.user.submissions.at(-1)).toMatchObject({ sr: 'node', title: 'Kysely tips', text: 'Use it.', author: account.username });
    const call = app.reddit.requests.filter((r) => r.path === '/api/submit').at(-1)!;
    expect(call.headers.authorization).toMatch(/^bearer fake-user-token-/);
    expect(await account.balance()).toBe(20 - PRICES.publish);
  });

  it('409 without a connected Reddit account; nothing charged', async () => {
    const account = await app.connectedAccount(20, { connect: false });
    const response = await publish(account, comment());
    expect(response.status).toBe(409);
    expect((await response.json()).code).toBe('connections.not_connected');
    expect(await account.balance()).toBe(20);
  });

  it('402 when the balance is below PRICE_PUBLISH; Reddit is not called', async () => {
    const account = await app.connectedAccount(PRICES.publish - 1);
    const before = app.reddit.user.comments.length;
    const response = await publish(account, comment());
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ balance: PRICES.publish - 1, required: PRICES.publish });
    expect(app.reddit.user.comments.length).toBe(before);
  });

  it.each([
    ['THREAD_LOCKED', 'that thread is locked', 'parent'],
    ['TOO_OLD', "that's a piece of history now; it's too late to reply to it", 'parent'],
    ['NO_TEXT', 'we need something here', 'text'],
  ])('Reddit refusing with %s → 422 with reddit_error, balance unchanged', async (code, message, field) => {
    const account = await app.connectedAccount(20);
    app.reddit.user.rejectNext(code, message, field);
    const response = await publish(account, comment());
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: 'publish.rejected', reddit_error: code, reddit_field: field });
    expect(await account.balance()).toBe(20);
    await ledgerMatches(account);
  });

  it('SUBREDDIT_NOEXIST and TOO_LONG as Reddit answers them → 422, balance unchanged', async () => {
    const account = await app.connectedAccount(20);
    const missing = await publish(account, { type: 'post', subreddit: 'r/doesnotexist', title: 't', body: 'b' });
    expect(await missing.json()).toMatchObject({ status: 422, reddit_error: 'SUBREDDIT_NOEXIST' });
    const long = await publish(account, comment('x'.repeat(10_001)));
    expect(await long.json()).toMatchObject({ status: 422, reddit_error: 'TOO_LONG' });
    expect(await account.balance()).toBe(20);
  });

  it('RATELIMIT → 429 with Retry-After from "try again in 9 minutes", balance unchanged', async () => {
    const account = await app.connectedAccount(20);
    app.reddit.user.rejectNext('RATELIMIT', 'you are doing that too much. try again in 9 minutes.', 'ratelimit');
    const response = await publish(account, comment());
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('540');
    expect((await response.json()).code).toBe('publish.rate_limited');
    expect(await account.balance()).toBe(20);
  });

  it('Reddit answering 403 (banned, private) → 403, balance unchanged; 5xx → 502', async () => {
    const account = await app.connectedAccount(20);
    app.reddit.user.failNext(403, { message: 'Forbidden', error: 403 });
    const forbidden = await publish(account, comment());
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).code).toBe('publish.forbidden');
    app.reddit.user.failNext(503);
    const down = await publish(account, comment());
    expect(down.status).toBe(502);
    expect(await account.balance()).toBe(20);
    await ledgerMatches(account);
  });

  it('an expired access token is refreshed transparently once; the comment goes out once', async () => {
    const account = await app.connectedAccount(20);
    app.reddit.user.expireAccessTokens();
    const refreshes = app.reddit.user.grants.filter((g) => g === 'refresh_token').length;
    const before = app.reddit.user.comments.length;
    const response = await publish(account, comment());
    expect(response.status).toBe(200);
    expect(app.reddit.user.grants.filter((g) => g === 'refresh_token').length).toBe(refreshes + 1);
    expect(app.reddit.user.comments.length).toBe(before + 1);
  });

  it('a rotated refresh token is saved (sealed) and used for the next refresh', async () => {
    const account = await app.connectedAccount(40);
    const sealedOf = async () =>
      (await app.services.db.selectFrom('reddit_connections').select('refresh_token_sealed').where('account_id', '=', account.accountId).executeTakeFirstOrThrow())
        .refresh_token_sealed;
    const first = await sealedOf();
    app.reddit.user.rotateRefreshTokens = true;
    try {
      app.reddit.user.expireAccessTokens();
      expect((await publish(account, comment())).status).toBe(200);
      expect(await sealedOf()).not.toBe(first);
      app.reddit.user.expireAccessTokens();
      expect((await publish(account, comment())).status).toBe(200); // the old token is retired by the fake
    } finally {
      app.reddit.user.rotateRefreshTokens = false;
    }
    expect(await account.balance()).toBe(40 - 2 * PRICES.publish);
  });

  it('a revoked authorization → 409 connections.revoked, nothing charged, the page offers to connect again', async () => {
    const account = await app.connectedAccount(20, { username: 'revoked_user' });
    for (const [token, user] of app.reddit.user.refreshTokens) if (user === 'revoked_user') app.reddit.user.refreshTokens.delete(token);
    app.reddit.user.expireAccessTokens();
    const response = await publish(account, comment());
    expect(response.status).toBe(409);
    expect((await response.json()).code).toBe('connections.revoked');
    expect(await account.balance()).toBe(20);
    expect((await account.dashboard.get('/dashboard/connections')).body).toContain('Connect Reddit');
  });

  it('Idempotency-Key: a retry returns the first result and posts once; another body with the key → 422', async () => {
    const account = await app.connectedAccount(40);
    const body = comment();
    const before = app.reddit.user.comments.length;
    const first = await publish(account, body, { 'idempotency-key': 'retry-1' });
    const second = await publish(account, body, { 'idempotency-key': 'retry-1' });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await second.json()).id).toBe((await first.json()).id);
    expect(app.reddit.user.comments.length).toBe(before + 1);
    expect(await account.balance()).toBe(40 - PRICES.publish);
    const other = await publish(account, comment(), { 'idempotency-key': 'retry-1' });
    expect(other.status).toBe(422);
    expect((await other.json()).code).toBe('publish.idempotency_mismatch');
  });

  it('Idempotency-Key: while the first request is in flight, a second one → 409', async () => {
    const account = await app.connectedAccount(40);
    const body = comment();
    app.reddit.user.delayMs = 400;
    try {
      const first = publish(account, body, { 'idempotency-key': 'slow-1' });
      await new Promise((resolve) => setTimeout(resolve, 150));
      const second = await publish(account, body, { 'idempotency-key': 'slow-1' });
      expect(second.status).toBe(409);
      expect((await second.json()).code).toBe('publish.in_progress');
      expect((await first).status).toBe(200);
    } finally {
      app.reddit.user.delayMs = 0;
    }
    expect(await account.balance()).toBe(40 - PRICES.publish);
  });

  it('a refused attempt frees its Idempotency-Key, so the retry is really tried', async () => {
    const account = await app.connectedAccount(40);
    const body = comment();
    app.reddit.user.rejectNext('RATELIMIT', 'you are doing that too much. try again in 30 seconds.', 'ratelimit');
    const limited = await publish(account, body, { 'idempotency-key': 'k-2' });
    expect(limited.headers.get('retry-after')).toBe('30');
    expect((await publish(account, body, { 'idempotency-key': 'k-2' })).status).toBe(200);
  });

  it('without a key, the same text to the same place again → 409 publish.duplicate, unless allow_duplicate (and allow_second_reply)', async () => {
    const account = await app.connectedAccount(40);
    const body = comment();
    const first = await (await publish(account, body)).json();
    const again = await publish(account, body);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'publish.duplicate', publication_id: first.id });
    expect((await publish(account, { ...body, allow_duplicate: true, allow_second_reply: true })).status).toBe(200);
    expect(await account.balance()).toBe(40 - 2 * PRICES.publish);
    await ledgerMatches(account);
  });

  it.each([
    ['no type', { body: 'x' }, '/type'],
    ['a comment without parent', { type: 'comment', body: 'x' }, '/parent'],
    ['a post without title', { type: 'post', subreddit: 'r/node', body: 'x' }, '/title'],
    ['generation_id with a body', { generation_id: `gen_${'0'.repeat(28)}`, body: 'x' }, '/body'],
    ['a bad parent', { type: 'comment', parent: 't5_abc', body: 'x' }, '/parent'],
  ])('422 for %s, before credits and before the connection', async (_name, body, path) => {
    const account = await app.connectedAccount(0, { connect: false });
    const response = await publish(account, body);
    expect(response.status).toBe(422);
    expect((await response.json()).errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});
