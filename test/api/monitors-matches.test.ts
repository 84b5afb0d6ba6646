import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsIn } from '../../src/modules/credits/credits.usecases.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { matchStore } from '../support/matches.ts';

const body = { name: 'Launch watch', subreddits: ['r/node', 'r/Quarantined', 'r/secret'], keywords: ['subpilot'], sources: ['posts', 'comments'] };

describe.each(engines)('a monitor’s matches and health through the API on %s', (engine) => {
  let app: TestApp;
  let storeMatches: ReturnType<typeof matchStore>;

  beforeAll(async () => {
    // No poller: the tests store matches, gaps and read states themselves, as the poller would.
    app = await startTestApp(engine, { worker: false });
    storeMatches = matchStore(app.services.db);
  });
  afterAll(() => app.close());

  async function monitorOf(token: string) {
    const response = await app.api('POST', '/api/v1/monitors', { token, body });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string };
  }


  const matches = async (token: string, monitorId: string, query: string) => {
    const response = await app.api('GET', `/api/v1/monitors/${monitorId}/matches?${query}`, { token });
    expect(response.status, query).toBe(200);
    return (await response.json()) as { data: { id: string }[]; has_more: boolean; next_cursor: string | null };
  };

  it('lists the matches newest first in pages, with every field of a match', async () => {
    const { token, accountId } = await app.accountWithKey(0);
    const { id } = await monitorOf(token);
    const ids = await storeMatches(id, accountId, 5);
    const pages: string[][] = [];
    let cursor = '';
    for (;;) {
      const page = await matches(token, id, `limit=2${cursor && `&cursor=${cursor}`}`);
      pages.push(page.data.map((m) => m.id));
      if (!page.has_more) break;
      cursor = page.next_cursor!;
    }
    expect(pages).toEqual([[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]]);
    const [newest] = (await matches(token, id, 'limit=1')).data;
    expect(newest).toEqual({
      id: ids[4],
      monitor_id: id,
      type: 'post',
      reddit_id: expect.stringMatching(/^t3_m\d+$/),
      subreddit: 'r/node',
      title: expect.stringMatching(/^Trying subpilot/),
      body: 'ünïcode body 🚀',
      author: 'someone',
      permalink: expect.stringMatching(/^https:\/\/www\.reddit\.com\/r\/node\/comments\//),
      created_at: '2026-05-01T09:59:00.000Z',
      matched_keywords: ['subpilot'],
      found_at: '2026-05-01T10:00:00.000Z',
      relevance: null,
      relevance_reason: null,
      judge_error: null,
      judge_model: null,
      filtered: false,
      status: 'new',
      draft_id: null,
      publication_id: null,
      source: 'reddit',
    });
  });

  it('a client that keeps the last id it saw and asks with after= gets each match once, oldest first, as they are stored', async () => {
    const { token, accountId } = await app.accountWithKey(0);
    const { id } = await monitorOf(token);
    const first = await storeMatches(id, accountId, 3);
    const other = await monitorOf(token);
    await storeMatches(other.id, accountId, 2);
    const seen: string[] = [];
    const consume = async () => {
      for (;;) {
        const page = await matches(token, id, `limit=2&after=${seen.at(-1)}`);
        seen.push(...page.data.map((m) => m.id));
        if (!page.has_more) return;
      }
    };
    // Its first call reads the newest one; from then on it only asks for what came after.
    seen.push((await matches(token, id, 'limit=1')).data[0]!.id);
    expect(seen).toEqual([first[2]]);
    const later = await storeMatches(id, accountId, 3);
    await consume();
    expect(seen).toEqual([first[2], ...later]);
    await consume();
    expect(seen).toEqual([first[2], ...later]);
  });

  it('the next_cursor of an after= page goes on oldest first', async () => {
    const { token, accountId } = await app.accountWithKey(0);
    const { id } = await monitorOf(token);
    const ids = await storeMatches(id, accountId, 4);
    const page = await matches(token, id, `limit=2&after=${ids[0]}`);
    expect(page.data.map((m) => m.id)).toEqual([ids[1], ids[2]]);
    const next = await matches(token, id, `limit=2&cursor=${page.next_cursor}`);
    expect(next).toEqual({ data: [expect.objectContaining({ id: ids[3] })], has_more: false, next_cursor: null });
  });

  it.each([
    ['after together with cursor', (ids: string[]) => `after=${ids[0]}&cursor=bjE`, 400, 'request.invalid_query'],
    ['a cursor the API never gave', () => 'cursor=bm90LWEtY3Vyc29y', 400, 'request.invalid_cursor'],
    ['an after that is not a match id', () => 'after=t3_abc', 422, 'request.invalid'],
    ['an after that is another monitor’s match', (_: string[], others: string[]) => `after=${others[0]}`, 404, 'monitors.match_not_found'],
  ])('refuses %s', async (_label, query, status, code) => {
    const { token, accountId } = await app.accountWithKey(0);
    const { id } = await monitorOf(token);
    const other = await monitorOf(token);
    const ids = await storeMatches(id, accountId, 1);
    const others = await storeMatches(other.id, accountId, 1);
    const response = await app.api('GET', `/api/v1/monitors/${id}/matches?${query(ids, others)}`, { token });
    expect(response.status).toBe(status);
    expect((await response.json()).code).toBe(code);
  });

  it('health shows each subreddit’s state from the directory, its last read and last Reddit error, and the 20 newest gaps', async () => {
    const { token } = await app.accountWithKey(0);
    const { id } = await monitorOf(token);
    const checkedAt = '2026-05-01T09:00:00.000Z';
    await app.services.db
      .insertInto('subreddits')
      .values([
        { name: 'node', display_name: 'node', state: 'ok', nsfw: 0, checked_at: checkedAt },
        { name: 'quarantined', display_name: 'Quarantined', state: 'forbidden', nsfw: 0, checked_at: checkedAt },
        { name: 'secret', display_name: 'secret', state: 'private', nsfw: 0, checked_at: checkedAt },
      ])
      .execute();
    const read = { mark: null, mark_at: null, error: null, error_at: null };
    await app.services.db
      .insertInto('monitor_cursors')
      .values([
        { ...read, subreddit: 'node', source: 'posts', read_at: '2026-05-01T10:00:00.000Z' },
        { ...read, subreddit: 'node', source: 'comments', read_at: '2026-05-01T10:01:00.000Z', error: 'rate_limited', error_at: '2026-05-01T10:02:00.000Z' },
      ])
      .execute();
    const gap = (i: number) => ({
      monitor_id: id,
      source: 'comments' as const,
      subreddits: '["r/node"]',
      from_at: `2026-05-01T08:${String(i).padStart(2, '0')}:00.000Z`,
      to_at: `2026-05-01T08:${String(i).padStart(2, '0')}:30.000Z`,
      recorded_at: `2026-05-01T09:${String(i).padStart(2, '0')}:00.000Z`,
    });
    await app.services.db.insertInto('monitor_gaps').values(Array.from({ length: 25 }, (_, i) => gap(i))).execute();

    const { health } = await (await app.api('GET', `/api/v1/monitors/${id}`, { token })).json();
    expect(health.subreddits).toEqual([
      { subreddit: 'r/node', state: 'ok', stale: false, last_read_at: '2026-05-01T10:01:00.000Z', last_error: { code: 'rate_limited', at: '2026-05-01T10:02:00.000Z' } },
      { subreddit: 'r/Quarantined', state: 'quarantined', stale: false, last_read_at: null, last_error: null },
      { subreddit: 'r/secret', state: 'private', stale: false, last_read_at: null, last_error: null },
    ]);
    expect(health.gaps).toHaveLength(20);
    expect(health.gaps[0]).toEqual({ source: 'comments', subreddits: ['r/node'], from: gap(24).from_at, to: gap(24).to_at, recorded_at: gap(24).recorded_at });
    expect(health.gaps.at(-1).recorded_at).toBe(gap(5).recorded_at);
    const listed = (await (await app.api('GET', '/api/v1/monitors', { token })).json()).data[0];
    expect(listed.health).toEqual(health);
  });

  it('deleting a monitor deletes its matches and gaps too', async () => {
    const { token, accountId } = await app.accountWithKey(0);
    const { id } = await monitorOf(token);
    await storeMatches(id, accountId, 2);
    const at = '2026-05-01T10:00:00.000Z';
    await app.services.db
      .insertInto('monitor_gaps')
      .values({ monitor_id: id, source: 'posts', subreddits: '["r/node"]', from_at: at, to_at: at, recorded_at: at })
      .execute();
    expect((await app.api('DELETE', `/api/v1/monitors/${id}`, { token })).status).toBe(204);
    const db = app.services.db;
    expect(await db.selectFrom('monitor_matches').select('id').where('monitor_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('monitor_gaps').select('seq').where('monitor_id', '=', id).execute()).toEqual([]);
  });

  it('a monitor’s charge reads “Monitor “name”: N matches” in the usage ledger, and names the monitor by id once it is deleted', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const { id } = await monitorOf(token);
    // The charge the poller makes for one poll's matches, with the monitor and the count on the ledger row.
    await creditsIn(app.services.db).charge({ accountId, keyId: null, price: 3, purchase: { kind: 'monitor', id, matches: 3 }, at: new Date().toISOString() });
    const described = async () => (await (await app.api('GET', '/api/v1/usage?limit=1', { token })).json()).data[0].description;
    expect(await described()).toBe('Monitor “Launch watch”: 3 matches');
    await app.api('DELETE', `/api/v1/monitors/${id}`, { token });
    expect(await described()).toBe(`Monitor ${id}: 3 matches`);
    expect(await ledgerSum(app.services.db, accountId)).toBe(await app.services.credits.spendableBalance(accountId));
  });
});
