import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/shared/db/database.ts';
import { migrate } from '../../src/shared/db/migrate.ts';
import {
  createMemoryBudgetStore,
  createRedditBudget,
  windowOf,
  type BudgetStore,
  type RedditBudget,
} from '../../src/integrations/reddit/reddit.budget.ts';
import { createRedditClient, type RedditClient } from '../../src/integrations/reddit/reddit.client.ts';
import { RedditUnavailableError } from '../../src/integrations/reddit/reddit.errors.ts';
import { createRedisBudgetStore, createSqlBudgetStore } from '../../src/modules/ratelimit/ratelimit.budget-stores.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { openTestDatabase, type TestDatabase } from '../support/engines.ts';
import { startFakeReddit, type FakeReddit } from '../support/fake-reddit.ts';

const PER_MINUTE = 10;
const START = Date.parse('2026-11-23T12:00:00Z');

/**
 * A pinned clock that moves only when every caller still waiting for the budget is asleep: it then
 * jumps to the earliest wake-up. Counts, not timings: nothing here depends on how fast the machine is.
 */
function manualTime() {
  let now = START;
  let busy = 0;
  const sleepers: { at: number; wake: () => void }[] = [];
  const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
  return {
    now: () => now,
    sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ at: now + ms, wake })),
    /** Runs `work` as one caller that may sleep. */
    async track<T>(work: () => Promise<T>): Promise<T> {
      busy++;
      try {
        return await work();
      } finally {
        busy--;
      }
    },
    /** Drives the clock until every tracked caller is done. */
    async runUntilIdle() {
      for (;;) {
        await settle();
        if (busy === 0) return;
        if (sleepers.length < busy) continue;
        sleepers.sort((a, b) => a.at - b.at);
        now = Math.max(now, sleepers[0]!.at);
        for (const sleeper of sleepers.splice(0, sleepers.filter((s) => s.at <= now).length)) sleeper.wake();
      }
    },
  };
}

type Backend = 'memory' | 'postgres' | 'redis';
const backends: Backend[] = [
  'memory',
  ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : []),
  ...(process.env.TEST_REDIS_URL ? (['redis'] as const) : []),
];

describe.each(backends)('the shared Reddit request budget (%s)', (backend) => {
  let fake: FakeReddit;
  const cleanups: (() => Promise<void>)[] = [];

  /** Two service instances' fresh stores on one backend (memory is one process, so one store shared). */
  async function twoStores(): Promise<[BudgetStore, BudgetStore]> {
    if (backend === 'memory') {
      const store = createMemoryBudgetStore();
      return [store, store];
    }
    if (backend === 'redis') {
      const key = `subpilot:test-budget:${randomBytes(6).toString('hex')}`;
      const pair = [await createRedisBudgetStore(process.env.TEST_REDIS_URL!, key), await createRedisBudgetStore(process.env.TEST_REDIS_URL!, key)];
      cleanups.push(async () => void (await Promise.all(pair.map((store) => store.close()))));
      return pair as [BudgetStore, BudgetStore];
    }
    const database: TestDatabase = await openTestDatabase('postgres');
    await migrate(database.db);
    const secondPool: Database = createDatabase(database.target);
    cleanups.push(async () => {
      await secondPool.destroy();
      await database.drop();
    });
    return [createSqlBudgetStore(database.db), createSqlBudgetStore(secondPool)];
  }

  beforeAll(async () => {
    fake = await startFakeReddit();
    // Enough matching posts that a limit=500 search pages three times.
    for (let i = 0; i < 300; i++) fake.posts.push({ id: `big${i}`, subreddit: 'big', title: `saas ${i}`, created_utc: 1_700_000_000 + i });
  });
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    await fake.close();
  });

  it('account A firing many large scrapes on two instances never pushes a window past the budget, and account B still gets its share', async () => {
    const time = manualTime();
    const grants: { consumer: string; window: number }[] = [];
    const clientOf = (store: BudgetStore): RedditClient => {
      const inner = createRedditBudget({ store, perMinute: PER_MINUTE, now: time.now, sleep: time.sleep });
      // Notes the window of every slot granted, to count calls per window.
      const budget: RedditBudget = {
        async take(consumer) {
          await inner.take(consumer);
          grants.push({ consumer, window: windowOf(time.now()) });
        },
        close: inner.close,
      };
      return createRedditClient({
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        userAgent: 'node:subpilot-test:1.0 (by /u/test)',
        apiUrl: fake.url,
        authUrl: fake.url,
        sleep: () => Promise.resolve(),
        budget,
      });
    };
    const [first, second] = (await twoStores()).map(clientOf) as [RedditClient, RedditClient];
    const search = (client: RedditClient, accountId: string) =>
      client.search({ subreddits: ['big'], keywords: ['saas'], sort: 'new', time: 'all', limit: 500, includeNsfw: false, accountId });
    const apiCallsBefore = fake.requests.filter((r) => r.path !== '/api/v1/access_token').length;

    // A: eight scrapes of 3+ pages each (24+ calls), over both instances, before B asks for anything.
    const a = Array.from({ length: 8 }, (_, i) => time.track(() => search(i % 2 ? first : second, 'acc_a')));
    // B submits one scrape of the same size once A has already used this window up.
    const b = time.track(async () => {
      // A fills the window within a few hundred ms; 2,000 polls (10 s) means it never did.
      for (let polls = 0; grants.length < PER_MINUTE; polls++) {
        if (polls === 2000) throw new Error(`A was granted only ${grants.length} of ${PER_MINUTE} calls in 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return search(first, 'acc_b');
    });
    const driving = time.runUntilIdle();
    const results = await Promise.allSettled([...a, b]);
    await driving;

    const perWindow = new Map<number, Map<string, number>>();
    for (const grant of grants) {
      const counts = perWindow.get(grant.window) ?? new Map<string, number>();
      counts.set(grant.consumer, (counts.get(grant.consumer) ?? 0) + 1);
      perWindow.set(grant.window, counts);
    }
    // Never more than the budget in any window, across both instances.
    for (const counts of perWindow.values()) expect([...counts.values()].reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(PER_MINUTE);
    // Every Reddit API call took a slot (the token endpoint is not part of the budget).
    expect(fake.requests.filter((r) => r.path !== '/api/v1/access_token').length - apiCallsBefore).toBe(grants.length);

    // B's scrape completed, all its calls in the window after the one A had used up, though A kept asking.
    const bResult = results.at(-1)!;
    expect(bResult.status).toBe('fulfilled');
    expect((bResult as PromiseFulfilledResult<{ posts: unknown[] }>).value.posts).toHaveLength(300);
    const windows = [...perWindow.keys()].sort((x, y) => x - y);
    expect(perWindow.get(windows[0]!)!.get('acc_a')).toBe(PER_MINUTE);
    expect(perWindow.get(windows[0]!)!.get('acc_b')).toBeUndefined();
    const bCalls = grants.filter((g) => g.consumer === 'acc_b').length;
    expect(bCalls).toBeGreaterThanOrEqual(3);
    expect(perWindow.get(windows[1]!)!.get('acc_b')).toBe(bCalls);

    // A's scrapes that could not get a slot within the bound fail as "Reddit unavailable, retry later", never as empty results.
    const failed = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    for (const error of failed) {
      expect(error).toBeInstanceOf(RedditUnavailableError);
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
    }
    for (const r of results) if (r.status === 'fulfilled') expect(r.value.posts.length).toBeGreaterThan(0);
  });

  it('a call that finds the budget used up waits for the next window, and past the bound fails as unavailable with Retry-After', async () => {
    const time = manualTime();
    const [store] = await twoStores();
    const budget = createRedditBudget({ store, perMinute: 2, now: time.now, sleep: time.sleep, maxWaitMs: 90_000 });
    const taken: number[] = [];
    const take = (consumer: string) => time.track(async () => void (await budget.take(consumer), taken.push(time.now())));
    const calls = [take('acc_c'), take('acc_c'), take('acc_c'), take('acc_c')];
    const driving = time.runUntilIdle();
    await Promise.all(calls);
    await driving;
    // Two in the first window, two more once the next one opened.
    expect(taken.map((at) => windowOf(at) - windowOf(START))).toEqual([0, 0, 60_000, 60_000]);

    const late = [take('acc_c'), take('acc_c'), take('acc_c')];
    const drivingLate = time.runUntilIdle();
    const outcomes = await Promise.allSettled(late);
    await drivingLate;
    // The third could only start two windows on, beyond the 90 s bound.
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(RedditUnavailableError);
    expect(refused[0].retryAfterSeconds).toBeGreaterThan(0);
    expect(refused[0].message).toMatch(/budget/);
  });
});

(process.env.TEST_DATABASE_URL ? describe : describe.skip)('the budget inside the service (postgres)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('postgres');
    app.reddit.posts.push({ id: 'bud1', subreddit: 'node', title: 'budget', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  it("a scrape's Reddit calls are counted for the account that asked, in the shared table", async () => {
    const { token, accountId } = await app.accountWithKey(5);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['budget'] } });
    expect(response.status).toBe(200);
    const rows = await app.database.db.selectFrom('reddit_budget').selectAll().execute();
    const apiCalls = app.reddit.requests.filter((r) => r.path !== '/api/v1/access_token').length;
    expect(rows.find((row) => row.consumer === accountId)?.used).toBeGreaterThanOrEqual(1);
    expect(rows.reduce((sum, row) => sum + Number(row.used), 0)).toBe(apiCalls);
  });
});
