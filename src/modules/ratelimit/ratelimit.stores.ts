import { sql } from 'kysely';
import type { Database } from '../../app/database.ts';

/** Counts one request in a fixed window and returns the count so far. */
export interface RateLimitStore {
  hit(keyId: string, windowStart: number): Promise<number>;
  close(): Promise<void>;
}

/** One process, one SQLite file: counters in memory are exact, and cost nothing. */
export function createMemoryStore(): RateLimitStore {
  const counts = new Map<string, { window: number; count: number }>();
  return {
    async hit(keyId, windowStart) {
      const entry = counts.get(keyId);
      if (!entry || entry.window !== windowStart) {
        counts.set(keyId, { window: windowStart, count: 1 });
        return 1;
      }
      entry.count += 1;
      return entry.count;
    },
    async close() {},
  };
}

/** Shared by every instance on one PostgreSQL: an upsert that counts and reads in one statement. */
export function createSqlStore(db: Database): RateLimitStore {
  let hits = 0;
  return {
    async hit(keyId, windowStart) {
      // Now and then, drop windows that can no longer matter.
      if (++hits % 1000 === 0) {
        await db.deleteFrom('rate_limit_windows').where('window_start', '<', windowStart - 120).execute();
      }
      const row = await db
        .insertInto('rate_limit_windows')
        .values({ key_id: keyId, window_start: windowStart, count: 1 })
        .onConflict((oc) =>
          oc.columns(['key_id', 'window_start']).doUpdateSet({ count: sql`rate_limit_windows.count + 1` }),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async close() {},
  };
}

/** Shared through Redis when REDIS_URL is set: INCR and EXPIRE in one round trip. */
export async function createRedisStore(url: string): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  return {
    async hit(keyId, windowStart) {
      const key = `subpilot:rl:${keyId}:${windowStart}`;
      const [[, count]] = (await redis.multi().incr(key).expire(key, 120).exec()) as [[Error | null, number]];
      return count;
    },
    async close() {
      await redis.quit();
    },
  };
}
