import type { MatchMode, MonitorMatchRow, MonitorRow, MonitorSource } from './monitors.tables.ts';

/*
 * The shapes are MonitorView and MatchView of monitors.usecases.ts, whose declared types check them
 * there; a helper may not import from a usecases file (test/architecture/imports.test.ts).
 */

/** A monitor as the API, the dashboard and its webhook events show it; its health is read separately. */
export function toMonitorView<Health>(row: MonitorRow, health: Health) {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    paused_reason: row.paused_reason,
    paused_until: row.paused_until,
    subreddits: JSON.parse(row.subreddits) as string[],
    keywords: JSON.parse(row.keywords) as string[],
    exclude_keywords: JSON.parse(row.exclude_keywords) as string[],
    match: row.match_mode as MatchMode,
    sources: JSON.parse(row.sources) as MonitorSource[],
    // SQLite has no booleans, and PostgreSQL's driver may hand an integer back as text.
    include_nsfw: Number(row.include_nsfw) === 1,
    webhook_url: row.webhook_url,
    max_matches_per_day: row.max_matches_per_day === null ? null : Number(row.max_matches_per_day),
    health,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A stored match as GET /monitors/{id}/matches and the monitor.matches event show it. */
export function toMatchView(row: MonitorMatchRow) {
  return {
    id: row.id,
    monitor_id: row.monitor_id,
    type: row.type,
    reddit_id: row.reddit_id,
    subreddit: row.subreddit,
    title: row.title,
    body: row.body,
    author: row.author,
    permalink: row.permalink,
    created_at: row.created_at,
    matched_keywords: JSON.parse(row.matched_keywords) as string[],
    found_at: row.found_at,
  };
}
