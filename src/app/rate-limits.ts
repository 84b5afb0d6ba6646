import type { Config } from '../shared/config/config.ts';
import type { Database } from '../shared/db/database.ts';
import { createMemoryStore, createRedisStore, createSqlStore } from '../modules/ratelimit/ratelimit.stores.ts';
import { createRateLimitUsecases } from '../modules/ratelimit/ratelimit.usecases.ts';

/** The per-key and per-account request limits. Counters must be shared by every instance: Redis if given, else PostgreSQL; SQLite is one process. */
export async function createRateLimits(config: Config, db: Database, clock: () => Date) {
  const store = config.redisUrl
    ? await createRedisStore(config.redisUrl)
    : config.database.dialect === 'postgres'
      ? createSqlStore(db)
      : createMemoryStore();
  return createRateLimitUsecases({ store, clock, perMinute: config.rateLimitPerMinute, perAccountPerMinute: config.rateLimitPerAccountPerMinute });
}
