/**
 * The shapes of monitors as the API, the dashboard and the webhooks show them, and of what they send.
 * Types only, so the pure helpers (health, views) can name them as well as the usecases.
 */
import type { MonitorSettings } from './monitors.input.ts';
import type { RedditAppState } from './poller/reddit-app.ts';
import type { MatchedItem, MatchMode, MonitorSource, PausedReason } from './monitors.tables.ts';

/** What POST /api/v1/monitors and the dashboard's form give (already schema-checked; trimmed and folded here). */
export interface MonitorInput {
  name: string;
  subreddits: string[];
  keywords: string[];
  exclude_keywords?: string[];
  match?: MatchMode;
  sources?: MonitorSource[];
  include_nsfw?: boolean;
  webhook_url?: string | null;
  max_matches_per_day?: number | null;
}

export type MonitorPatch = Partial<MonitorInput> & { status?: 'active' | 'paused' };

export type SubredditHealthState = 'ok' | 'private' | 'banned' | 'not_found' | 'quarantined';
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
  /** Newest first, at most 20. */
  gaps: { source: MonitorSource; subreddits: string[]; from: string; to: string; recorded_at: string }[];
}

/** A monitor as the API shows it: its settings as stored, and its state. */
export interface MonitorView extends MonitorSettings {
  id: string;
  status: 'active' | 'paused';
  paused_reason: PausedReason | null;
  paused_until: string | null;
  health: MonitorHealth;
  created_at: string;
  updated_at: string;
}

/** A stored match: the item's fields as the match row keeps them, and the match's own. */
export interface MatchView extends MatchedItem {
  id: string;
  monitor_id: string;
  matched_keywords: string[];
  found_at: string;
}

/** What a monitor matched lately, as the Monitors list shows it. */
export interface MonitorActivity {
  /** Matches stored since 00:00 UTC today. */
  matches_today: number;
  /** When the newest match was stored; null: none yet. */
  last_match_at: string | null;
}
