import type { Database } from '../../src/shared/db/database.ts';

/**
 * Stores `count` matches of a monitor in this order, as the poller does, and returns their ids: for
 * tests of how matches are read, without a poll of Reddit before each. Matches alternate post and
 * comment, counted per store (one per database), so a suite sees the same ones on every engine.
 */
export const matchStore = (db: Database) => {
  let stored = 0;
  return async (monitorId: string, accountId: string, count: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const n = ++stored;
      const id = `mat_${n.toString(16).padStart(28, '0')}`;
      await db
        .insertInto('monitor_matches')
        .values({
          id,
          monitor_id: monitorId,
          account_id: accountId,
          type: n % 2 ? 'post' : 'comment',
          reddit_id: n % 2 ? `t3_m${n}` : `t1_m${n}`,
          subreddit: 'r/node',
          title: `Trying subpilot ${n}`,
          body: 'ünïcode body 🚀',
          author: 'someone',
          permalink: `https://www.reddit.com/r/node/comments/m${n}/`,
          created_at: '2026-05-01T09:59:00.000Z',
          matched_keywords: '["subpilot"]',
          found_at: '2026-05-01T10:00:00.000Z',
          webhook_batch: null,
          notified_at: null,
        })
        .execute();
      ids.push(id);
    }
    return ids;
  };
};
