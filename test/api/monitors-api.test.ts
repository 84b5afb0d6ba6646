import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';

const SECRET_KEY = 'c'.repeat(64);
const body = { name: 'Launch watch', subreddits: ['r/node', 'r/TypeScript'], keywords: ['subpilot', 'reddit api'] };

describe.each(engines)('the monitors API on %s', (engine) => {
  let app: TestApp;
  // Moved forward by each test that needs one monitor to be newer than another (ids sort by creation time).
  let now = new Date('2026-05-01T10:00:00Z');
  const tick = () => (now = new Date(now.getTime() + 1000));

  beforeAll(async () => {
    app = await startTestApp(engine, {
      env: { SECRET_KEY },
      // No poller: these tests are about what the owner sees and changes, not about reading Reddit.
      worker: false,
      overrides: { clock: () => now, resolveHost: async () => [{ address: '93.184.216.34', family: 4 }] },
    });
  });
  afterAll(() => app.close());

  const create = (token: string, fields: Record<string, unknown> = {}) =>
    app.api('POST', '/api/v1/monitors', { token, body: { ...body, ...fields } });

  it('POST creates an active monitor with the defaults, answers 201 with its Location, and GET reads the same monitor', async () => {
    const { token } = await app.accountWithKey(0);
    const response = await create(token, { keywords: [' subpilot ', 'SubPilot', 'reddit api'], subreddits: ['r/node', 'r/NODE', 'r/TypeScript'] });
    expect(response.status).toBe(201);
    const monitor = await response.json();
    expect(monitor).toEqual({
      id: expect.stringMatching(/^mon_[0-9a-f]{28}$/),
      name: 'Launch watch',
      status: 'active',
      paused_reason: null,
      paused_until: null,
      subreddits: ['r/node', 'r/TypeScript'],
      exclude_subreddits: [],
      keywords: ['subpilot', 'reddit api'],
      exclude_keywords: [],
      match: 'word',
      sources: ['posts'],
      include_nsfw: false,
      webhook_url: null,
      max_matches_per_day: null,
      query: null,
      intent: null,
      min_relevance: 60,
      draft_replies: false,
      draft_instructions: null,
      health: {
        status: 'ok',
        reddit: { state: 'ok', since: null },
        subreddits: [
          { subreddit: 'r/node', state: 'ok', stale: false, last_read_at: null, last_error: null },
          { subreddit: 'r/TypeScript', state: 'ok', stale: false, last_read_at: null, last_error: null },
        ],
        read_by_stream: [],
        gaps: [],
        judge: null,
        stream: null,
        destinations: [],
      },
      // No stream on this server: nothing to count, said so, and nothing refused.
      preview: { matched_last_hour: null, items_in_window: null, window_started_at: null, estimated_per_day: null, daily_limit: 2000, reason: expect.stringContaining('stream is off') },
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    expect(response.headers.get('location')).toBe(`/api/v1/monitors/${monitor.id}`);
    const read = await app.api('GET', `/api/v1/monitors/${monitor.id}`, { token });
    expect(read.status).toBe(200);
    // The preview is the answer of a create or a change alone.
    const { preview: _, ...stored } = monitor;
    expect(await read.json()).toEqual(stored);
  });

  it('POST keeps every optional field given, in one order of sources whatever order they came in', async () => {
    const { token } = await app.accountWithKey(0);
    const fields = {
      exclude_keywords: ['hiring'],
      match: 'word',
      sources: ['comments', 'posts'],
      include_nsfw: true,
      webhook_url: 'https://hooks.example.com/subpilot',
      max_matches_per_day: 200,
    };
    const monitor = await (await create(token, fields)).json();
    expect(monitor).toMatchObject({ ...fields, sources: ['posts', 'comments'] });
  });

  it('the list pages newest first with an opaque cursor and shows only the caller’s own monitors', async () => {
    const { token } = await app.accountWithKey(0);
    const other = await app.accountWithKey(0);
    await create(other.token);
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      tick();
      ids.push((await (await create(token, { name })).json()).id);
    }
    const first = await (await app.api('GET', '/api/v1/monitors?limit=2', { token })).json();
    expect(first.data.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[1]]);
    expect(first).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const second = await (await app.api('GET', `/api/v1/monitors?limit=2&cursor=${first.next_cursor}`, { token })).json();
    expect(second).toMatchObject({ data: [{ id: ids[0], name: 'one', health: { gaps: [] } }], has_more: false, next_cursor: null });
  });

  it('PATCH changes only the fields given, keeps watching from creation, and answers the whole monitor', async () => {
    const { token } = await app.accountWithKey(0);
    const created = await (await create(token)).json();
    tick();
    const response = await app.api('PATCH', `/api/v1/monitors/${created.id}`, {
      token,
      body: { keywords: ['launch'], subreddits: ['r/javascript'], webhook_url: null },
    });
    expect(response.status).toBe(200);
    const changed = await response.json();
    expect(changed).toMatchObject({ ...created, keywords: ['launch'], subreddits: ['r/javascript'], health: expect.any(Object), updated_at: now.toISOString() });
    const row = await app.services.db.selectFrom('monitors').select('watch_from').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.watch_from).toBe(created.created_at);
  });

  it('pausing records that the owner paused it, and resuming clears the reason and watches from that moment on', async () => {
    const { token } = await app.accountWithKey(0);
    const { id } = await (await create(token)).json();
    const paused = await (await app.api('PATCH', `/api/v1/monitors/${id}`, { token, body: { status: 'paused' } })).json();
    expect(paused).toMatchObject({ status: 'paused', paused_reason: 'user', paused_until: null });
    const resumedAt = tick().toISOString();
    const resumed = await (await app.api('PATCH', `/api/v1/monitors/${id}`, { token, body: { status: 'active' } })).json();
    expect(resumed).toMatchObject({ status: 'active', paused_reason: null, paused_until: null });
    const row = await app.services.db.selectFrom('monitors').select('watch_from').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.watch_from).toBe(resumedAt);
  });

  it('DELETE answers 204 and the monitor is gone from GET and the list', async () => {
    const { token } = await app.accountWithKey(0);
    const { id } = await (await create(token)).json();
    const response = await app.api('DELETE', `/api/v1/monitors/${id}`, { token });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await app.api('GET', `/api/v1/monitors/${id}`, { token })).status).toBe(404);
    expect((await (await app.api('GET', '/api/v1/monitors', { token })).json()).data).toEqual([]);
    expect((await app.api('DELETE', `/api/v1/monitors/${id}`, { token })).status).toBe(404);
  });

  it.each([
    ['an unknown field', { color: 'red' }, '/color', /^unknown field `color`; known fields: name, subreddits, /],
    [
      'a keyword that is blank after trimming',
      { keywords: ['ok', '   '] },
      '/keywords/1',
      /^keywords\[1\] is 1 to 100 characters long after trimming spaces \(at most 200 with the spaces\), without the NUL character \(U\+0000\)$/,
    ],
    ['a keyword of 201 characters, one rule for its length', { keywords: ['k'.repeat(201)] }, '/keywords/0', /^keywords\[0\] is 1 to 100 characters long after trimming spaces \(at most 200/],
    ['101 subreddits', { subreddits: Array.from({ length: 101 }, (_, i) => `r/sub${i}`) }, '/subreddits', /^subreddits holds 1 to 100 items$/],
    ['a subreddit with a dash', { subreddits: ['r/no-de'] }, '/subreddits/0', /^subreddits\[0\] must be a subreddit: r\/name, .* \(got "r\/no-de"\)$/],
    ['the same source twice', { sources: ['posts', 'posts'] }, '/sources', /^sources must list each value only once$/],
    ['a daily cap of zero', { max_matches_per_day: 0 }, '/max_matches_per_day', /^max_matches_per_day is a whole number from 1 to 1000000, or null for no cap$/],
    ['a name of 65 characters', { name: 'x'.repeat(65) }, '/name', /^name is 1 to 64 characters long after trimming spaces, without the NUL character \(U\+0000\)$/],
  ])('POST refuses %s with a 422 pointing at it, and stores nothing', async (_label, fields, path, message) => {
    const { token } = await app.accountWithKey(0);
    const response = await create(token, fields);
    expect(response.status).toBe(422);
    const problem = await response.json();
    expect(problem.code).toBe('request.invalid');
    expect(problem.errors).toContainEqual({ path, message: expect.stringMatching(message) });
    // One message a place: a text too long is not refused twice, by two limits.
    expect(problem.errors.filter((error: { path: string }) => error.path === path)).toHaveLength(1);
    expect((await (await app.api('GET', '/api/v1/monitors', { token })).json()).data).toEqual([]);
  });

  it('POST refuses an http webhook URL with 422 webhooks.invalid_url pointing at it, and stores nothing', async () => {
    const { token } = await app.accountWithKey(0);
    const response = await create(token, { webhook_url: 'http://hooks.example.com/x' });
    expect(response.status).toBe(422);
    const problem = await response.json();
    expect(problem.code).toBe('webhooks.invalid_url');
    expect(problem.errors).toContainEqual({ path: '/webhook_url', message: expect.stringMatching(/^webhook_url .*https/) });
    expect((await (await app.api('GET', '/api/v1/monitors', { token })).json()).data).toEqual([]);
  });

  it('PATCH refuses what POST refuses and leaves the monitor as it was', async () => {
    const { token } = await app.accountWithKey(0);
    const { preview: _, ...created } = await (await create(token)).json();
    for (const patch of [{ keywords: ['  '] }, { status: 'stopped' }, { sources: [] }, { unknown: 1 }]) {
      const response = await app.api('PATCH', `/api/v1/monitors/${created.id}`, { token, body: patch });
      expect(response.status, JSON.stringify(patch)).toBe(422);
    }
    expect(await (await app.api('GET', `/api/v1/monitors/${created.id}`, { token })).json()).toEqual(created);
  });

  it('another account’s monitor is a 404 monitors.not_found on every route, and is left untouched', async () => {
    const owner = await app.accountWithKey(0);
    const { preview: _, ...created } = await (await create(owner.token)).json();
    const { token } = await app.accountWithKey(0);
    for (const [method, path, patch] of [
      ['GET', `/api/v1/monitors/${created.id}`],
      ['PATCH', `/api/v1/monitors/${created.id}`, { status: 'paused' }],
      ['DELETE', `/api/v1/monitors/${created.id}`],
      ['GET', `/api/v1/monitors/${created.id}/matches`],
    ] as const) {
      const response = await app.api(method, path, { token, body: patch });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await response.json()).code).toBe('monitors.not_found');
    }
    expect(await (await app.api('GET', `/api/v1/monitors/${created.id}`, { token: owner.token })).json()).toEqual(created);
  });

  it('creating, editing and deleting need the monitors scope (403), reading needs only read', async () => {
    const { accountId, token: full } = await app.accountWithKey(0);
    const { id } = await (await create(full)).json();
    const { token: reader } = await app.services.keys.createKey(accountId, 'reader', { scopes: ['read'] });
    for (const [method, path, patch] of [
      ['POST', '/api/v1/monitors', body],
      ['PATCH', `/api/v1/monitors/${id}`, { name: 'x' }],
      ['DELETE', `/api/v1/monitors/${id}`],
    ] as const) {
      const response = await app.api(method, path, { token: reader, body: patch });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.headers.get('www-authenticate')).toMatch(/scope="monitors"$/);
    }
    for (const path of ['/api/v1/monitors', `/api/v1/monitors/${id}`, `/api/v1/monitors/${id}/matches`]) {
      expect((await app.api('GET', path, { token: reader })).status, path).toBe(200);
    }
    const { token: writer } = await app.services.keys.createKey(accountId, 'writer', { scopes: ['monitors'] });
    expect((await app.api('GET', '/api/v1/monitors', { token: writer })).status).toBe(403);
    expect((await create(writer)).status).toBe(201);
  });

  it('at a zero balance every monitor call goes through and none answers 402; nothing is charged', async () => {
    const { token, accountId } = await app.accountWithKey(0);
    const created = await create(token);
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const answers = [
      await app.api('GET', '/api/v1/monitors', { token }),
      await app.api('GET', `/api/v1/monitors/${id}`, { token }),
      await app.api('PATCH', `/api/v1/monitors/${id}`, { token, body: { status: 'paused' } }),
      await app.api('PATCH', `/api/v1/monitors/${id}`, { token, body: { status: 'active' } }),
      await app.api('GET', `/api/v1/monitors/${id}/matches`, { token }),
      await app.api('DELETE', `/api/v1/monitors/${id}`, { token }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 204]);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(0);
    expect(await ledgerSum(app.services.db, accountId)).toBe(0);
  });

  it('a create retried with the same Idempotency-Key makes one monitor and replays the first answer', async () => {
    const { token } = await app.accountWithKey(0);
    const send = () => app.api('POST', '/api/v1/monitors', { token, body, headers: { 'idempotency-key': 'create-once' } });
    const first = await send();
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect((await (await app.api('GET', '/api/v1/monitors', { token })).json()).data).toHaveLength(1);
  });

  it('20 concurrent creates with one Idempotency-Key make one monitor: a twin that lost the race answers 409, and its retry gets the monitor', async () => {
    const { token } = await app.accountWithKey(0);
    const send = () => app.api('POST', '/api/v1/monitors', { token, body, headers: { 'idempotency-key': 'create-race' } });
    const answers = await Promise.all(Array.from({ length: 20 }, send));
    const created = new Set<string>();
    for (const answer of answers) {
      const json = await answer.json();
      if (answer.status === 409) expect(json.code).toBe('idempotency.in_progress');
      else created.add(json.id);
    }
    const retry = await (await send()).json();
    created.add(retry.id);
    expect(created.size).toBe(1);
    expect((await (await app.api('GET', '/api/v1/monitors', { token })).json()).data.map((m: { id: string }) => m.id)).toEqual([...created]);
  });

  it('a create whose answer was never stored (the process died after the commit) is answered from the monitor, not made again', async () => {
    const { token, accountId } = await app.accountWithKey(0);
    const send = () => app.api('POST', '/api/v1/monitors', { token, body, headers: { 'idempotency-key': 'create-lost' } });
    const first = await (await send()).json();
    // The state a kill -9 between the commit and the answer leaves: the key bound, no answer stored.
    await app.services.db
      .updateTable('idempotency_keys')
      .set({ status: 'bound', response_status: null, response_headers: null, response_body: null })
      .where('account_id', '=', accountId)
      .execute();
    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(`/api/v1/monitors/${first.id}`);
    expect((await retry.json()).id).toBe(first.id);
    expect((await (await app.api('GET', '/api/v1/monitors', { token })).json()).data).toHaveLength(1);
  });
});
