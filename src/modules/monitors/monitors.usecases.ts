/**
 * CONTRACT (issue 12, written by the lead): the API helper implements the bodies; the types below are
 * what the routes, the dashboard and the CLI use, and do not change without the lead.
 */
import type { MatchMode, MonitorSource, PausedReason } from './monitors.tables.ts';

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

export interface MonitorHealth {
  subreddits: {
    subreddit: string;
    state: SubredditHealthState;
    last_read_at: string | null;
    last_error: { code: RedditErrorCode; at: string } | null;
  }[];
  /** Newest first, at most 20. */
  gaps: { source: MonitorSource; subreddits: string[]; from: string; to: string; recorded_at: string }[];
}

export interface MonitorView {
  id: string;
  name: string;
  status: 'active' | 'paused';
  paused_reason: PausedReason | null;
  paused_until: string | null;
  subreddits: string[];
  keywords: string[];
  exclude_keywords: string[];
  match: MatchMode;
  sources: MonitorSource[];
  include_nsfw: boolean;
  webhook_url: string | null;
  max_matches_per_day: number | null;
  health: MonitorHealth;
  created_at: string;
  updated_at: string;
}

export interface MatchView {
  id: string;
  monitor_id: string;
  type: 'post' | 'comment';
  reddit_id: string;
  subreddit: string;
  title: string;
  body: string;
  author: string;
  permalink: string;
  created_at: string;
  matched_keywords: string[];
  found_at: string;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface MonitorsUsecases {
  create(accountId: string, input: MonitorInput): Promise<MonitorView>;
  list(accountId: string, page: { limit: number; cursor?: string }): Promise<Page<MonitorView>>;
  /** 404 `monitors.not_found` for an unknown id or another account's. */
  get(accountId: string, id: string): Promise<MonitorView>;
  update(accountId: string, id: string, patch: MonitorPatch): Promise<MonitorView>;
  remove(accountId: string, id: string): Promise<void>;
  /** `after`: everything stored after that match, oldest first; otherwise newest first from `cursor`. */
  matches(accountId: string, id: string, query: { limit: number; cursor?: string; after?: string }): Promise<Page<MatchView>>;
}
