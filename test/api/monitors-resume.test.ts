import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { createMonitor, cycle, startMonitorsApp, storedMatches, type PinnedClock } from '../support/monitors.ts';

// Monitor events are only queued here (no worker runs): a local address saves a DNS look-up.
const HOOK = 'http://127.0.0.1:9/subpilot';
const WEBHOOKS = { SECRET_KEY: 'e'.repeat(64), ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true' };

describe.each(engines)('a monitor paused for credits, once the account can pay again, on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    ({ app, clock } = await startMonitorsApp(engine, { env: WEBHOOKS }));
  });
  afterAll(() => app.close());

  /** `count` new posts mentioning `word` in r/`subreddit`, a second apart, then one cycle. */
  async function postsThenCycle(subreddit: string, word: string, count: number) {
    clock.advance(10);
    const posts = Array.from({ length: count }, (_, i) =>
      app.reddit.addPost({ subreddit, title: `${word} number ${i}`, created_utc: clock.seconds() - count + i }),
    );
    clock.advance(10);
    await cycle(app);
    return posts;
  }
  const ids = (posts: { id: string }[]) => posts.map((p) => `t3_${p.id}`);
  const createdAt = (post: { created_utc: number }) => new Date(post.created_utc * 1000).toISOString();
  const monitorRow = (id: string) => app.database.db.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const storedIds = async (id: string) => (await storedMatches(app, id)).map((row) => row.reddit_id);
  /** The `data` of the monitor's webhook events of this type, in the order they were queued. */
  async function events(monitorId: string, type: string) {
    const rows = await app.database.db
      .selectFrom('webhook_deliveries')
      .select('payload')
      .where('event_type', '=', type)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => JSON.parse(row.payload).data).filter((data) => data.monitor_id === monitorId);
  }
  async function expectExactLedger(accountId: string, balance: number) {
    expect(await app.services.credits.spendableBalance(accountId)).toBe(balance);
    expect(await ledgerSum(app.services.db, accountId)).toBe(balance);
  }

  /** A monitor on its own subreddit whose first match finds an empty balance: it pauses owing from that match. */
  async function pausedForCredits(subreddit: string, options: Record<string, unknown> = {}) {
    app.reddit.subreddits.set(subreddit, 'public');
    const { accountId, token } = await app.accountWithKey(0);
    const monitor = await createMonitor(app, token, { subreddits: [`r/${subreddit}`], keywords: ['otter'], webhook_url: HOOK, ...options });
    await cycle(app);
    app.reddit.addPost({ subreddit, title: 'an older unrelated post', created_utc: clock.seconds() });
    const first = await postsThenCycle(subreddit, 'otter', 1);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'paused', paused_reason: 'insufficient_credits', resume_from: createdAt(first[0]!) });
    return { accountId, token, monitor, first };
  }

  it('the next cycle after a grant resumes it by itself, announces it once, and delivers what was posted meanwhile once, oldest first', async () => {
    app.reddit.subreddits.set('otters', 'public');
    const { accountId, token } = await app.accountWithKey(1);
    const monitor = await createMonitor(app, token, { subreddits: ['r/otters'], keywords: ['otter'], webhook_url: HOOK });
    await cycle(app);
    const before = await postsThenCycle('otters', 'otter', 3);
    expect(await storedIds(monitor.id)).toEqual(ids(before.slice(0, 1)));
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'paused', paused_reason: 'insufficient_credits', resume_from: createdAt(before[1]!) });

    const meanwhile = await postsThenCycle('otters', 'otter', 4);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'paused', paused_reason: 'insufficient_credits' });
    expect(await events(monitor.id, 'monitor.resumed')).toEqual([]);

    await app.services.credits.grant(accountId, 10);
    const after = await postsThenCycle('otters', 'otter', 1);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'active', paused_reason: null, resume_from: null });
    expect(await storedIds(monitor.id)).toEqual(ids([...before, ...meanwhile, ...after]));
    expect(await events(monitor.id, 'monitor.resumed')).toEqual([
      { monitor_id: monitor.id, name: 'watch', reason: 'credits_available', from: createdAt(before[1]!) },
    ]);

    await postsThenCycle('otters', 'unrelated', 2);
    expect(await storedIds(monitor.id)).toEqual(ids([...before, ...meanwhile, ...after]));
    expect(await events(monitor.id, 'monitor.resumed')).toHaveLength(1);
    expect((await monitorRow(monitor.id)).status).toBe('active');
    await expectExactLedger(accountId, 11 - 8);
  });

  it('more than Reddit lists posted while paused: the newest 1,000 are delivered and the older part is recorded as a gap', async () => {
    const { accountId, token, monitor, first } = await pausedForCredits('flood');
    clock.advance(10);
    const flood = Array.from({ length: 1200 }, (_, i) => app.reddit.addPost({ subreddit: 'flood', title: `otter ${i}`, created_utc: clock.seconds() + i }));
    clock.advance(1300);
    await app.services.credits.grant(accountId, 2000);
    await cycle(app);

    const reached = flood[200]!;
    expect(await storedIds(monitor.id)).toEqual(ids(flood.slice(200)));
    const shown = await (await app.api('GET', `/api/v1/monitors/${monitor.id}`, { token })).json();
    const gap = { source: 'posts', subreddits: ['r/flood'], from: createdAt(first[0]!), to: createdAt(reached) };
    expect(shown).toMatchObject({ status: 'active', health: { gaps: [expect.objectContaining(gap)] } });
    expect(await events(monitor.id, 'monitor.health')).toEqual([{ monitor_id: monitor.id, name: 'watch', gap }]);
    expect((await monitorRow(monitor.id)).resume_from).toBeNull();
    await expectExactLedger(accountId, 2000 - 1000);
  });

  it('credits running out again during the catch-up pause it where they ran out, and the next grant catches up from there without a duplicate', async () => {
    const { accountId, monitor, first } = await pausedForCredits('again');
    const meanwhile = await postsThenCycle('again', 'otter', 5);
    await app.services.credits.grant(accountId, 3);
    await cycle(app);
    expect(await storedIds(monitor.id)).toEqual(ids([...first, ...meanwhile.slice(0, 2)]));
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'paused', paused_reason: 'insufficient_credits', resume_from: createdAt(meanwhile[2]!) });
    expect(await events(monitor.id, 'monitor.paused')).toEqual([
      { monitor_id: monitor.id, name: 'watch', reason: 'insufficient_credits' },
      { monitor_id: monitor.id, name: 'watch', reason: 'insufficient_credits' },
    ]);

    const later = await postsThenCycle('again', 'otter', 2);
    await app.services.credits.grant(accountId, 10);
    await cycle(app);
    expect(await storedIds(monitor.id)).toEqual(ids([...first, ...meanwhile, ...later]));
    expect((await events(monitor.id, 'monitor.resumed')).map((event) => event.from)).toEqual([createdAt(first[0]!), createdAt(meanwhile[2]!)]);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'active', resume_from: null });
    await expectExactLedger(accountId, 13 - 8);
  });

  it('a catch-up whose end was never committed is done again after a restart, storing and charging nothing twice', async () => {
    const { accountId, monitor, first } = await pausedForCredits('redo');
    const meanwhile = await postsThenCycle('redo', 'otter', 3);
    await app.services.credits.grant(accountId, 10);
    await cycle(app);
    expect(await storedIds(monitor.id)).toEqual(ids([...first, ...meanwhile]));

    // What a crash between storing and the commit that clears resume_from leaves behind.
    await app.database.db.updateTable('monitors').set({ resume_from: createdAt(first[0]!) }).where('id', '=', monitor.id).execute();
    clock.advance(10);
    await cycle(app);
    expect(await storedIds(monitor.id)).toEqual(ids([...first, ...meanwhile]));
    expect((await monitorRow(monitor.id)).resume_from).toBeNull();
    await expectExactLedger(accountId, 10 - 4);
  });

  it('a catch-up Reddit fails is done at the next cycle, and the monitor owes nothing until then', async () => {
    const { accountId, monitor, first } = await pausedForCredits('flaky');
    const meanwhile = await postsThenCycle('flaky', 'otter', 2);
    await app.services.credits.grant(accountId, 10);
    app.reddit.failAlways(503);
    try {
      await cycle(app);
    } finally {
      app.reddit.failAlways(null);
    }
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'active', resume_from: createdAt(first[0]!) });
    expect(await storedIds(monitor.id)).toEqual([]);

    const after = await postsThenCycle('flaky', 'otter', 1);
    expect(await storedIds(monitor.id)).toEqual(ids([...first, ...meanwhile, ...after]));
    expect((await monitorRow(monitor.id)).resume_from).toBeNull();
    await expectExactLedger(accountId, 10 - 4);
  });

  it('resumed by its owner after a grant, a monitor paused for credits catches up from where it stopped too', async () => {
    const { accountId, token, monitor, first } = await pausedForCredits('byhand');
    const meanwhile = await postsThenCycle('byhand', 'otter', 2);
    await app.services.credits.grant(accountId, 10);
    const resumed = await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { status: 'active' } });
    expect(resumed.status).toBe(200);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'active', watch_from: createdAt(first[0]!), resume_from: createdAt(first[0]!) });

    const after = await postsThenCycle('byhand', 'otter', 1);
    expect(await storedIds(monitor.id)).toEqual(ids([...first, ...meanwhile, ...after]));
    // The owner resumed it: the service did not.
    expect(await events(monitor.id, 'monitor.resumed')).toEqual([]);
    await expectExactLedger(accountId, 10 - 4);
  });

  it('a monitor its owner paused, even one already paused for credits, stays paused after a grant and once resumed watches from that moment', async () => {
    const { accountId, token, monitor } = await pausedForCredits('owner');
    await postsThenCycle('owner', 'otter', 2);
    await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { status: 'paused' } });
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'paused', paused_reason: 'user', resume_from: null });
    await app.services.credits.grant(accountId, 10);
    await postsThenCycle('owner', 'otter', 2);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'paused', paused_reason: 'user' });

    const resumedAt = clock.now().toISOString();
    await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { status: 'active' } });
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'active', watch_from: resumedAt, resume_from: null });
    const after = await postsThenCycle('owner', 'otter', 1);
    expect(after[0]!.created_utc * 1000).toBeGreaterThanOrEqual(Date.parse(resumedAt));
    expect(await storedIds(monitor.id)).toEqual(ids(after));
    expect(await events(monitor.id, 'monitor.resumed')).toEqual([]);
    await expectExactLedger(accountId, 10 - 1);
  });

  it('the daily cap reached during a catch-up ends it: the monitor pauses until midnight and then watches from midnight', async () => {
    const { accountId, monitor, first } = await pausedForCredits('capped', { max_matches_per_day: 2 });
    await postsThenCycle('capped', 'otter', 3);
    await app.services.credits.grant(accountId, 10);
    await cycle(app);
    const paused = await monitorRow(monitor.id);
    expect(paused).toMatchObject({ status: 'paused', paused_reason: 'daily_cap', resume_from: null });
    expect(await storedMatches(app, monitor.id)).toHaveLength(2);
    expect((await storedIds(monitor.id))[0]).toBe(ids(first)[0]);

    clock.set(paused.paused_until!);
    const next = await postsThenCycle('capped', 'otter', 1);
    expect(await monitorRow(monitor.id)).toMatchObject({ status: 'active', resume_from: null });
    expect((await storedIds(monitor.id)).slice(2)).toEqual(ids(next));
    await expectExactLedger(accountId, 10 - 3);
  });
});

describe.each(engines)('a monitor paused for credits when matches cost nothing, on %s', (engine) => {
  it('resumes at the next cycle whatever the balance', async () => {
    const { app } = await startMonitorsApp(engine, { env: { PRICE_MONITOR_MATCH: '0' } });
    try {
      app.reddit.subreddits.set('free', 'public');
      const { token } = await app.accountWithKey(0);
      const monitor = await createMonitor(app, token, { subreddits: ['r/free'], keywords: ['otter'] });
      // Paused while matches still had a price.
      const from = '2026-11-23T11:00:00.000Z';
      await app.database.db
        .updateTable('monitors')
        .set({ status: 'paused', paused_reason: 'insufficient_credits', resume_from: from })
        .where('id', '=', monitor.id)
        .execute();
      await cycle(app);
      const row = await app.database.db.selectFrom('monitors').selectAll().where('id', '=', monitor.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'active', paused_reason: null, watch_from: from, resume_from: null });
    } finally {
      await app.close();
    }
  });
});
