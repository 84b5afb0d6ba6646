import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createCreditsUsecases } from '../../src/modules/credits/credits.usecases.ts';
import { migrate } from '../../src/shared/db/migrate.ts';
import { engines, openTestDatabase } from '../support/engines.ts';

describe.each(engines)('migration 0017 (via) on %s', (engine) => {
  it('says api for what was made with a key before it, which only the API could do, null for monitors and rows without a key, and monitor for what a monitor spent', async () => {
    const database = await openTestDatabase(engine);
    const { db } = database;
    try {
      await migrate(db, '0016_subreddit_omitted_names');
      const at = '2026-11-01T00:00:00.000Z';
      await sql`insert into accounts (id, email, balance, created_at) values ('acc_1', 'old@example.com', 0, ${at})`.execute(db);
      await sql`insert into scrapes (id, account_id, key_id, status, request, price, charged, created_at)
        values ('scr_key', 'acc_1', 'key_1', 'completed', '{}', 1, 1, ${at}), ('scr_none', 'acc_1', null, 'completed', '{}', 1, 1, ${at})`.execute(db);
      await sql`insert into generations (id, account_id, key_id, status, type, request, subreddit, price, charged, created_at)
        values ('gen_key', 'acc_1', 'key_1', 'completed', 'post', '{}', 'r/node', 1, 1, ${at})`.execute(db);
      await sql`insert into publications (id, account_id, key_id, status, kind, target, body, content_hash, request_hash, price, charged, created_at)
        values ('pub_key', 'acc_1', 'key_1', 'published', 'post', 'r/node', 'hi', 'c', 'r', 1, 1, ${at})`.execute(db);
      await sql`insert into monitors (id, account_id, name, status, subreddits, keywords, exclude_keywords, match_mode, sources, include_nsfw, watch_from, created_at, updated_at)
        values ('mon_old', 'acc_1', 'old', 'active', '["r/node"]', '["x"]', '[]', 'phrase', '["posts"]', 0, ${at}, ${at}, ${at})`.execute(db);
      await sql`insert into credit_ledger (account_id, kind, amount, balance_after, key_id, scrape_id, monitor_id, match_count, created_at)
        values ('acc_1', 'grant', 10, 10, null, null, null, null, ${at}),
               ('acc_1', 'charge', -1, 9, 'key_1', 'scr_key', null, null, ${at}),
               ('acc_1', 'charge', -1, 8, null, null, 'mon_old', 1, ${at})`.execute(db);

      await migrate(db);

      const via = async (table: 'scrapes' | 'generations' | 'publications' | 'monitors') =>
        (await db.selectFrom(table).select(['id', 'via']).orderBy('id').execute()).map((row) => [row.id, row.via]);
      expect(await via('scrapes')).toEqual([['scr_key', 'api'], ['scr_none', null]]);
      expect(await via('generations')).toEqual([['gen_key', 'api']]);
      expect(await via('publications')).toEqual([['pub_key', 'api']]);
      expect(await via('monitors')).toEqual([['mon_old', null]]);
      const usage = await createCreditsUsecases({ db, clock: () => new Date(at) }).usage('acc_1', { limit: 10 });
      expect(usage.data.map((entry) => [entry.type, entry.via])).toEqual([['charge', 'monitor'], ['charge', 'api'], ['grant', null]]);
    } finally {
      await database.drop();
    }
  });
});
