/**
 * Where the shared Reddit budget (src/integrations/reddit/reddit.budget.ts) keeps its counts when
 * several instances share it: PostgreSQL, or Redis when REDIS_URL is set, as the rate-limit counters.
 * The memory store for SQLite lives beside the budget itself.
 */
import { sql } from 'kysely';
import { realSleep } from '../../shared/sleep.ts';
import { isSqlite, transaction, type Database } from '../../shared/db/database.ts';
import {
  createMemoryBudgetStore,
  createRedditBudget,
  windowOf,
  type BudgetEntry,
  type BudgetStore,
  type RedditBudget,
} from '../../integrations/reddit/reddit.budget.ts';

/** Every instance on one PostgreSQL: each decision in a transaction that holds the table's lock. */
export function createSqlBudgetStore(db: Database): BudgetStore {
  let decisions = 0;
  return {
    async transact(nowMs, work) {
      const window = windowOf(nowMs);
      return transaction(db, async (trx) => {
        // One decision at a time across instances: about a hundred a minute, so nobody waits long.
        if (!isSqlite(db)) await sql`lock table reddit_budget in exclusive mode`.execute(trx);
        if (++decisions % 100 === 0) {
          await trx.deleteFrom('reddit_budget').where('window_start', '<', window).where('active_until', '<=', nowMs).execute();
        }
        const rows = await trx
          .selectFrom('reddit_budget')
          .selectAll()
          .where((eb) => eb.or([eb('window_start', '=', window), eb('active_until', '>', nowMs)]))
          .execute();
        const entries = rows.map((row) => ({
          consumer: row.consumer,
          window: Number(row.window_start),
          used: Number(row.used),
          activeUntil: Number(row.active_until),
        }));
        const { result, save } = work(entries);
        const values = { window_start: save.window, used: save.used, active_until: save.activeUntil };
        await trx
          .insertInto('reddit_budget')
          .values({ consumer: save.consumer, ...values })
          .onConflict((oc) => oc.column('consumer').doUpdateSet(values))
          .execute();
        return result;
      });
    },
    async close() {},
  };
}

/**
 * Every instance on one Redis: the entries as one small JSON value, changed with WATCH/MULTI (an
 * optimistic transaction that is decided again when another instance changed it first). Decisions
 * of this process queue up, as WATCH belongs to the connection.
 */
export async function createRedisBudgetStore(url: string, key = 'subpilot:reddit-budget'): Promise<BudgetStore> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  let queue: Promise<unknown> = Promise.resolve();

  async function decideOnce<T>(nowMs: number, work: (entries: BudgetEntry[]) => { result: T; save: BudgetEntry }): Promise<T> {
    const window = windowOf(nowMs);
    for (;;) {
      await redis.watch(key);
      const raw = await redis.get(key);
      const stored = raw ? (JSON.parse(raw) as BudgetEntry[]) : [];
      const entries = stored.filter((entry) => entry.window === window || entry.activeUntil > nowMs);
      const { result, save } = work(entries);
      const next = [...entries.filter((entry) => entry.consumer !== save.consumer), save];
      // Kept a little over two windows: nothing older can matter.
      if (await redis.multi().set(key, JSON.stringify(next), 'PX', 150_000).exec()) return result;
    }
  }

  return {
    transact(nowMs, work) {
      const run = queue.then(() => decideOnce(nowMs, work));
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      await redis.quit();
    },
  };
}

/** The budget where the rate-limit counters are: Redis if given, else PostgreSQL; SQLite is one process. */
export async function openRedditBudget(deps: {
  redisUrl: string | null;
  db: Database;
  perMinute: number;
  /** The site-wide stream's fixed share of each minute (reddit.budget.ts STREAM_CONSUMER); 0: off. */
  streamPerMinute?: number;
  now: () => number;
  sleep?: (ms: number) => Promise<void>;
}): Promise<RedditBudget> {
  const store = deps.redisUrl
    ? await createRedisBudgetStore(deps.redisUrl)
    : isSqlite(deps.db)
      ? createMemoryBudgetStore()
      : createSqlBudgetStore(deps.db);
  return createRedditBudget({ store, perMinute: deps.perMinute, streamPerMinute: deps.streamPerMinute, now: deps.now, sleep: deps.sleep ?? realSleep });
}
