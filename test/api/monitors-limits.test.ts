import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

/** Small limits, so a test reaches them in a few requests; the defaults (25 and 500) are the same code. */
const LIMITS = { MONITOR_MAX_PER_ACCOUNT: '3', MONITOR_MAX_SUBREDDITS_PER_ACCOUNT: '5' };
const subs = (...names: string[]) => names.map((name) => `r/${name}`);

describe.each(engines)('the per-account monitor limits on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: LIMITS, worker: false });
  });
  afterAll(() => app.close());

  const create = (token: string, subreddits: string[], name = 'watch') =>
    app.api('POST', '/api/v1/monitors', { token, body: { name, subreddits, keywords: ['launch'] } });
  const patch = (token: string, id: string, body: Record<string, unknown>) => app.api('PATCH', `/api/v1/monitors/${id}`, { token, body });
  const count = async (accountId: string) =>
    (await app.database.db.selectFrom('monitors').select('id').where('account_id', '=', accountId).execute()).length;

  it('one monitor beyond the limit is refused with 422 monitors.limit_reached naming the limit and the usage, and nothing is created', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    const ids: string[] = [];
    for (const name of ['a1', 'a2', 'a3']) ids.push(((await (await create(token, subs(name))).json()) as { id: string }).id);
    // A paused monitor still counts: resuming it must never need room.
    expect((await patch(token, ids[0]!, { status: 'paused' })).status).toBe(200);

    const refused = await create(token, subs('a4'));
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = await refused.json();
    expect(problem).toMatchObject({ status: 422, code: 'monitors.limit_reached', limit: 3, used: 3 });
    expect(problem.detail).toMatch(/3 monitors and this server allows at most 3 per account, paused ones included; nothing was created/);
    expect(await count(accountId)).toBe(3);

    // Room made by deleting one is room to create one.
    expect((await app.api('DELETE', `/api/v1/monitors/${ids[1]}`, { token })).status).toBe(204);
    expect((await create(token, subs('a4'))).status).toBe(201);
  });

  it('a create that would watch more different subreddits than allowed is refused with 422 monitors.too_many_subreddits, counting a subreddit once whatever its case', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    expect((await create(token, subs('one', 'two', 'three'))).status).toBe(201);
    // r/TWO and r/Three are already watched: 4 different subreddits in all, within 5.
    expect((await create(token, subs('TWO', 'Three', 'four'))).status).toBe(201);

    const refused = await create(token, subs('five', 'six'));
    expect(refused.status).toBe(422);
    const problem = await refused.json();
    expect(problem).toMatchObject({ code: 'monitors.too_many_subreddits', limit: 5, used: 4, would_use: 6 });
    expect(problem.detail).toMatch(/watch 6 different subreddits, and this server allows at most 5 per account \(you watch 4 now/);
    expect(await count(accountId)).toBe(2);
    expect((await create(token, subs('five', 'ONE'))).status).toBe(201);
  });

  it('a PATCH that grows a monitor’s subreddits past the limit is refused and leaves the monitor as it was', async () => {
    const { token } = await app.accountWithKey(0);
    const first = (await (await create(token, subs('p1', 'p2'))).json()) as { id: string };
    const second = (await (await create(token, subs('p3', 'p4'))).json()) as { id: string; updated_at: string };

    const refused = await patch(token, second.id, { subreddits: subs('p3', 'p4', 'p5', 'p6'), name: 'renamed' });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: 'monitors.too_many_subreddits', limit: 5, used: 4, would_use: 6 });
    const kept = await (await app.api('GET', `/api/v1/monitors/${second.id}`, { token })).json();
    expect(kept).toMatchObject({ name: 'watch', subreddits: subs('p3', 'p4'), updated_at: second.updated_at });

    // Replacing a monitor's own subreddits frees theirs: p3 and p4 out, p5 and p6 in is still 4; p1 in both counts once.
    expect((await patch(token, second.id, { subreddits: subs('p5', 'p6', 'P1') })).status).toBe(200);
    expect((await patch(token, first.id, { subreddits: subs('p1', 'p2', 'p7') })).status).toBe(200);
    expect((await patch(token, first.id, { subreddits: subs('p1', 'p2', 'p7', 'p8') })).status).toBe(422);
  });

  it('ten creates racing for the last two places: exactly two are created and eight are refused', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    expect((await create(token, subs('race0'))).status).toBe(201);
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => create(token, subs('race0'), `racer ${i}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses.filter((status) => status === 422)).toHaveLength(8);
    for (const response of responses.filter((r) => r.status === 422)) expect((await response.json()).code).toBe('monitors.limit_reached');
    expect(await count(accountId)).toBe(3);
  });

  it('two creates racing with new subreddits that fit alone but not together: exactly one is created', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    expect((await create(token, subs('base1', 'base2'))).status).toBe(201);
    const [left, right] = await Promise.all([create(token, subs('left1', 'left2')), create(token, subs('right1', 'right2'))]);
    expect([left.status, right.status].sort()).toEqual([201, 422]);
    const rows = await app.database.db.selectFrom('monitors').select('subreddits').where('account_id', '=', accountId).execute();
    expect(new Set(rows.flatMap((row) => JSON.parse(row.subreddits) as string[])).size).toBe(4);
    expect(await count(accountId)).toBe(2);
  });
});
