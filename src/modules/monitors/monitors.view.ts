/**
 * Monitors as the API, the dashboard and the webhooks show them: the shapes (what they show and what
 * they take), and beside them the functions that build a monitor and a match from their rows, so a
 * field is added in one file and its declared type checks the builder.
 */
import { sourceOf, type DataSource } from '../../shared/demo.ts';
import type { MonitorSettings } from './monitors.input.ts';
import type { RedditAppState } from './monitors.reddit-app.ts';
import type { MatchedItem, MatchMode, MatchStatus, MonitorMatchRow, MonitorRow, MonitorSource, PausedReason } from './monitors.tables.ts';

/** What POST /api/v1/monitors and the dashboard's form give (already schema-checked; trimmed and folded here). */
export interface MonitorInput {
  name: string;
  subreddits: string[];
  exclude_subreddits?: string[];
  keywords?: string[];
  exclude_keywords?: string[];
  match?: MatchMode;
  sources?: MonitorSource[];
  include_nsfw?: boolean;
  webhook_url?: string | null;
  max_matches_per_day?: number | null;
  query?: string | null;
  intent?: string | null;
  min_relevance?: number;
  draft_replies?: boolean;
  draft_instructions?: string | null;
  /** Not stored: accepts a query whose preview estimates more matches a day than the server's limit. */
  confirm_volume?: boolean;
}

export type MonitorPatch = Partial<MonitorInput> & { status?: 'active' | 'paused' };

export type SubredditHealthState = 'ok' | 'private' | 'banned' | 'not_found' | 'quarantined' | 'gated';
export type RedditErrorCode = 'rate_limited' | 'blocked' | 'unavailable';

/** How Reddit treats the service's app, as the poller last saw it; `since` is null while it never saw trouble. */
export interface RedditAppView {
  state: RedditAppState;
  since: string | null;
}

export interface MonitorHealth {
  /** `stale`: a subreddit Reddit would serve went unread too long; `unavailable`: Reddit refuses a subreddit; `ok` otherwise. */
  status: 'ok' | 'stale' | 'unavailable';
  reddit: RedditAppView;
  subreddits: {
    subreddit: string;
    state: SubredditHealthState;
    /** Not read for more than two poller intervals (only ever for an active monitor). */
    stale: boolean;
    last_read_at: string | null;
    last_error: { code: RedditErrorCode; at: string } | null;
  }[];
  /** The sources the site-wide stream reads for it now (monitors.stream-serving.ts): their subreddits are not polled meanwhile. */
  read_by_stream: MonitorSource[];
  /** Newest first, at most 20. */
  gaps: { source: MonitorSource; subreddits: string[]; from: string; to: string; recorded_at: string }[];
  /** The relevance judge as the poller last saw it; null for a monitor without an intent. */
  judge: JudgeView | null;
  /** For a monitor over all of Reddit, whether the site-wide stream reads for it; null for one that names subreddits. */
  stream: { state: 'reading' | 'behind' | 'off'; detail: string | null } | null;
  /** The destinations its matches are routed to that get nothing now: switched off, or not yet confirmed. */
  destinations: { id: string; name: string; kind: string; status: 'off' | 'unconfirmed'; reason: string | null }[];
}

/** `failing`: every call to the language model failed in the last poll that judged anything; `error` says why. */
export interface JudgeView {
  state: 'ok' | 'failing';
  since: string | null;
  error: string | null;
}

/**
 * What a monitor's rule would have matched among the items the site-wide stream read in its last
 * hour (its ring, kept in memory by the process that runs the stream): the numbers are null, with
 * the reason, when this process has no items to count.
 */
export interface MonitorPreview {
  matched_last_hour: number | null;
  items_in_window: number | null;
  window_started_at: string | null;
  /** matched_last_hour scaled from the window to a day. */
  estimated_per_day: number | null;
  /** Above it, creating or changing the monitor needs confirm_volume. */
  daily_limit: number;
  reason: string | null;
}

/** A monitor as the API shows it: its settings as stored, and its state. */
export interface MonitorView extends MonitorSettings {
  id: string;
  status: 'active' | 'paused';
  paused_reason: PausedReason | null;
  paused_until: string | null;
  health: MonitorHealth;
  /** Only in the answers of a create or a change: what the rule would have matched lately. */
  preview?: MonitorPreview;
  created_at: string;
  updated_at: string;
}

/** A stored match: the item's fields as the match row keeps them, and the match's own. */
export interface MatchView extends MatchedItem {
  id: string;
  monitor_id: string;
  matched_keywords: string[];
  found_at: string;
  /** The judge's score 0–100; null when not judged. */
  relevance: number | null;
  relevance_reason: string | null;
  /** Why a match of a monitor with an intent went out unjudged; null otherwise. */
  judge_error: { code: string; message: string } | null;
  /** The model that judged it. */
  judge_model: string | null;
  /** Judged below the monitor's bar: kept, listed with ?include=filtered, never sent by webhook. */
  filtered: boolean;
  /** Where it stands in the inbox, with its newest draft and the publication that answered it. */
  status: MatchStatus;
  draft_id: string | null;
  publication_id: string | null;
  /** "demo" for the demo source's items (shared/demo.ts). */
  source: DataSource;
}

/** What a monitor matched lately, as the Monitors list shows it. */
export interface MonitorActivity {
  /** Matches stored since 00:00 UTC today. */
  matches_today: number;
  /** When the newest match was stored; null: none yet. */
  last_match_at: string | null;
}

/** A monitor as the API, the dashboard and its webhook events show it; its health is read separately. */
export function toMonitorView(row: MonitorRow, health: MonitorHealth): MonitorView {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    paused_reason: row.paused_reason,
    paused_until: row.paused_until,
    subreddits: JSON.parse(row.subreddits) as string[],
    exclude_subreddits: JSON.parse(row.exclude_subreddits) as string[],
    keywords: JSON.parse(row.keywords) as string[],
    exclude_keywords: JSON.parse(row.exclude_keywords) as string[],
    match: row.match_mode as MatchMode,
    sources: JSON.parse(row.sources) as MonitorSource[],
    // SQLite has no booleans, and PostgreSQL's driver may hand an integer back as text.
    include_nsfw: Number(row.include_nsfw) === 1,
    webhook_url: row.webhook_url,
    max_matches_per_day: row.max_matches_per_day === null ? null : Number(row.max_matches_per_day),
    query: row.query,
    intent: row.intent,
    min_relevance: Number(row.min_relevance),
    draft_replies: Number(row.draft_replies) === 1,
    draft_instructions: row.draft_instructions,
    health,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A stored match as GET /monitors/{id}/matches and the monitor.matches event show it. */
export function toMatchView(row: MonitorMatchRow): MatchView {
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
    relevance: row.relevance === null ? null : Number(row.relevance),
    relevance_reason: row.relevance_reason,
    judge_error: row.judge_error === null ? null : (JSON.parse(row.judge_error) as MatchView['judge_error']),
    judge_model: row.judge_model,
    filtered: Number(row.filtered) === 1,
    status: row.status,
    draft_id: row.draft_id,
    publication_id: row.publication_id,
    source: sourceOf(row.reddit_id),
  };
}
