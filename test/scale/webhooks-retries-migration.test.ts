import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/shared/db/migrate.ts';
import { engines, openTestDatabase } from '../support/engines.ts';

describe.each(engines)('migration 0009 (webhook retries) on %s', (engine) => {
  it('keeps every delivery and attempt, lets a delivery name no scrape, and attempts still need their delivery', async () => {
    const database = await openTestDatabase(engine);
    const { db } = database;
    try {
      // The shape before 0009: deliveries that must survive the rebuild.
      await migrate(db, '0008_scrape_skipped');
      const at = '2026-01-01T00:00:00.000Z';
      await sql`insert into accounts (id, email, created_at) values ('acc_1', 'old@example.com', ${at})`.execute(db);
      await sql`insert into webhook_deliveries (id, account_id, scrape_id, url, event_type, payload, status, attempts, created_at)
        values ('msg_1', 'acc_1', 'scr_1', 'https://example.com/h', 'scrape.completed', '{}', 'pending', 1, ${at})`.execute(db);
      await sql`insert into webhook_attempts (delivery_id, attempted_at, status_code, error, duration_ms)
        values ('msg_1', ${at}, 500, 'receiver answered 500', 12)`.execute(db);

      await migrate(db);

      const delivery = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', 'msg_1').executeTakeFirstOrThrow();
      expect(delivery).toMatchObject({ scrape_id: 'scr_1', status: 'pending', attempts: 1, next_attempt_at: null });
      const attempts = await db.selectFrom('webhook_attempts').selectAll().execute();
      expect(attempts).toEqual([expect.objectContaining({ delivery_id: 'msg_1', status_code: 500, duration_ms: 12 })]);

      await db
        .insertInto('webhook_deliveries')
        .values({
          id: 'msg_2',
          account_id: 'acc_1',
          scrape_id: null,
          url: 'https://example.com/h',
          event_type: 'webhook.test',
          payload: '{}',
          status: 'pending',
          attempts: 0,
          created_at: at,
          delivered_at: null,
          next_attempt_at: null,
        })
        .execute();
      await db.insertInto('webhook_attempts').values({ delivery_id: 'msg_2', attempted_at: at, status_code: 200, error: null, duration_ms: 3 }).execute();
      const ids = (await db.selectFrom('webhook_attempts').select('id').orderBy('id').execute()).map((r) => Number(r.id));
      expect(ids[1]).toBeGreaterThan(ids[0]!);
      await expect(
        db.insertInto('webhook_attempts').values({ delivery_id: 'msg_missing', attempted_at: at, status_code: 200, error: null, duration_ms: 1 }).execute(),
      ).rejects.toThrow();
    } finally {
      await database.drop();
    }
  });
});
