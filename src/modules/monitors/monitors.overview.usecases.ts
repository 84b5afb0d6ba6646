/**
 * Monitors for operators (`subpilot monitors list`, src/cli/monitors.ts): an account's monitors with
 * today's matches. Apart from monitors.usecases.ts so that a one-shot command loads little.
 */
import { utcDayStart } from '../../shared/calendar.ts';
import type { Database } from '../../shared/db/database.ts';
import { createMonitorsRepository } from './monitors.repository.ts';

/** For operators (`subpilot monitors list`): an account's monitors with how many matches each stored today (UTC), all or those watching one subreddit. */
export function createMonitorsOverview(deps: { db: Database; clock: () => Date }) {
  const monitors = createMonitorsRepository(deps.db);
  return {
    /** `subreddit` (r/name): only the monitors that watch it, whatever its case there (Reddit's names have none). */
    async list(accountId: string, filter: { subreddit?: string } = {}) {
      const rows = await monitors.listWithMatchesSince(accountId, utcDayStart(deps.clock()));
      const wanted = filter.subreddit?.toLowerCase();
      const watching = (row: (typeof rows)[number]) => wanted === undefined || (JSON.parse(row.subreddits) as string[]).some((s) => s.toLowerCase() === wanted);
      return rows.filter(watching).map((row) => ({
        id: row.id,
        name: row.name,
        status: row.status,
        paused_reason: row.paused_reason,
        subreddits: (JSON.parse(row.subreddits) as string[]).length,
        keywords: (JSON.parse(row.keywords) as string[]).length,
        matches_today: Number(row.matches_since ?? 0),
        created_at: row.created_at,
      }));
    },
  };
}
