import { sql } from 'kysely';
import type { Database } from '../../shared/db/database.ts';

/** Counts one request on each counter (a key, its account) in a fixed window; returns the counts so far, in order. */
export interface RateLimitStore {
  hit(counterIds: readonly string[], windowStart: number): Promise<number[]>;
  close(): Promise<void>;
}

/** One process, one SQLite file: counters in memory are exact, and cost nothing. */
export function createMemoryStore(): RateLimitStore {
  const counts = new Map<string, { window: number; count: number }>();
  return {
    async hit(counterIds, windowStart) {
      return counterIds.map((id) => {
        const entry = counts.get(id);
        if (!entry || entry.window !== windowStart) {
          counts.set(id, { window: windowStart, count: 1 });
          return 1;
        }
        entry.count += 1;
        return entry.count;
      });
    },
    async close() {},
  };
}

/** Shared by every instance on one PostgreSQL: one upsert counts and reads every counter of a call. */
export function createSqlStore(db: Database): RateLimitStore {
  let hits = 0;
  return {
    async hit(counterIds, windowStart) {
      // Now and then, drop windows that can no longer matter.
      if (++hits % 1000 === 0) {
        await db.deleteFrom('rate_limit_windows').where('window_start', '<', windowStart - 120).execute();
      }
      // Counter ids are key ids and "account:<id>", so one table holds both kinds.
      const rows = await db
        .insertInto('rate_limit_windows')
        .values(counterIds.map((id) => ({ key_id: id, window_start: windowStart, count: 1 })))
        .onConflict((oc) =>
          oc.columns(['key_id', 'window_start']).doUpdateSet({ count: sql`rate_limit_windows.count + 1` }),
        )
        .returning(['key_id', 'count'])
        .execute();
      const counts = new Map(rows.map((row) => [row.key_id, Number(row.count)]));
      return counterIds.map((id) => counts.get(id)!);
    },
    async close() {},
  };
}

/** Shared through Redis when REDIS_URL is set: INCR and EXPIRE of every counter in one round trip. */
export async function createRedisStore(url: string): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  return {
    async hit(counterIds, windowStart) {
      const multi = redis.multi();
      for (const id of counterIds) {
        const key = `subpilot:rl:${id}:${windowStart}`;
        multi.incr(key).expire(key, 120);
      }
      const replies = (await multi.exec()) as [Error | null, number][];
      return counterIds.map((_, i) => replies[2 * i]![1]);
    },
    async close() {
      await redis.quit();
    },
  };
}
