import type { Database } from '../../src/shared/db/database.ts';

/** What the relevance judge left on a match: a score and reason (`filtered` below the bar), or why it went out unjudged. */
export type MatchVerdict = { relevance: number; reason: string; filtered?: boolean } | { error: { code: string; message: string } };

const verdictColumns = (verdict: MatchVerdict | null) => {
  if (verdict === null) return {};
  if ('error' in verdict) return { judge_error: JSON.stringify(verdict.error) };
  return { relevance: verdict.relevance, relevance_reason: verdict.reason, judge_model: 'fake-model', filtered: verdict.filtered ? 1 : 0 };
};

/**
 * Matches stored as the poller stores them, in storage order ("Match 0" first), so the dashboard has
 * something to show without a poll. Each links to its post on Reddit unless `permalink` says otherwise;
 * `verdict` gives match i the judge's verdict (none by default, as for a monitor without an intent).
 */
export async function insertMatches(
  db: Database,
  options: { monitorId: string; accountId: string; count: number; title?: string; permalink?: string; verdict?: (i: number) => MatchVerdict | null },
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
        ...verdictColumns(options.verdict?.(i) ?? null),
      })
      .execute();
  }
}
