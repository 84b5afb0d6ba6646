import type { Database } from '../../src/shared/db/database.ts';

/**
 * Matches stored as the poller stores them, in storage order ("Match 0" first), so the dashboard has
 * something to show without a poll. Each links to its post on Reddit unless `permalink` says otherwise.
 */
export async function insertMatches(
  db: Database,
  options: { monitorId: string; accountId: string; count: number; title?: string; permalink?: string },
): Promise<void> {
  const start = Date.parse('2026-01-02T00:00:00.000Z');
  for (let i = 0; i < options.count; i++) {
    const at = new Date(start + i * 60_000).toISOString();
    await db
      .insertInto('monitor_matches')
      .values({
        id: `mat_${options.monitorId.slice(4)}${String(i).padStart(4, '0')}`,
        monitor_id: options.monitorId,
        account_id: options.accountId,
        type: i % 2 === 0 ? 'post' : 'comment',
        reddit_id: `${i % 2 === 0 ? 't3' : 't1'}_m${i}`,
        subreddit: 'r/typescript',
        title: options.title ?? `Match ${i}`,
        body: `Some text about type safety, number ${i}.`,
        author: `author${i}`,
        permalink: options.permalink ?? `https://www.reddit.com/r/typescript/comments/m${i}/match_${i}/`,
        created_at: at,
        matched_keywords: '["type safety"]',
        found_at: at,
        webhook_batch: null,
        notified_at: null,
      })
      .execute();
  }
}
