import type { Generated, Selectable } from 'kysely';
import type { RedditItem } from '../../integrations/reddit/reddit.types.ts';
import type { MatchMode } from '../../shared/matching/keywords.ts';
import type { Via } from '../../shared/via.ts';

export type { MatchMode };
export type MonitorSource = 'posts' | 'comments';
export type PausedReason = 'insufficient_credits' | 'daily_cap' | 'user';

export interface MonitorsTable {
  /** "mon_…" */
  id: string;
  account_id: string;
  name: string;
  status: 'active' | 'paused';
  paused_reason: PausedReason | null;
  /** ISO instant a `daily_cap` pause ends by itself (the next UTC midnight); null otherwise. */
  paused_until: string | null;
  /** JSON: ["r/name", …] as the caller spelt them; ["r/all"]: all of Reddit, served by the site-wide stream alone. */
  subreddits: string;
  /** JSON: ["r/name", …]: never matched, whatever `subreddits` says (migration 0030; '[]' by default). */
  exclude_subreddits: Generated<string>;
  /** JSON: string[], trimmed. */
  keywords: string;
  /** JSON: string[], trimmed. */
  exclude_keywords: string;
  match_mode: MatchMode;
  /** JSON: MonitorSource[]. */
  sources: string;
  include_nsfw: number;
  webhook_url: string | null;
  max_matches_per_day: number | null;
  /** The query as given (docs/api/queries.md); null: keywords only. Both given: both must hold. */
  query: string | null;
  /** What a match should be about, for the relevance judge; null: not judged. */
  intent: string | null;
  /** 0–100: a judged match below it is stored as filtered. */
  min_relevance: Generated<number>;
  /** Things created before this instant are never matched: the creation time, then each resume. */
  watch_from: string;
  /**
   * Set by a pause for credits: the `created_at` of the first match that could not be paid for. Once
   * the monitor is active again the poller reads its subreddits back to it (poller/resume.usecases.ts)
   * and clears it; null when nothing is owed.
   */
  resume_from: string | null;
  /** How it was created: through the API, MCP or the dashboard; null for monitors older than migration 0017. */
  via: Via | null;
  /** 1: each delivered match gets a reply draft (charged PRICE_GENERATE), never published by itself. */
  draft_replies: Generated<number>;
  /** What those drafts should say or do, added to the account's voice; null: none. */
  draft_instructions: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * What a match keeps of the post or comment, as the listing read it: its id as `reddit_id` and its
 * subreddit as "r/name"; the rest is the item's own fields. The table and the API's match share it.
 */
export type MatchedItem = Pick<RedditItem, 'type' | 'title' | 'body' | 'author' | 'permalink' | 'created_at'> & {
  /** "t3_…" or "t1_…" */
  reddit_id: RedditItem['id'];
  /** "r/name" as Reddit spells it. */
  subreddit: string;
};

export interface MonitorMatchesTable extends MatchedItem {
  /** Storage order: the order of `?after=` and of the pages. */
  seq: Generated<number>;
  /** "mat_…" */
  id: string;
  monitor_id: string;
  account_id: string;
  /** JSON: the monitor's keywords found, in the monitor's order. */
  matched_keywords: string;
  found_at: string;
  /** The judge's score 0–100; null: not judged (no intent, or the judge failed: `judge_error`). */
  relevance: number | null;
  /** The judge's one sentence on why. */
  relevance_reason: string | null;
  /** JSON { code, message }: why a match of a monitor with an intent went out unjudged. */
  judge_error: string | null;
  /** The model that judged it, as the endpoint named it. */
  judge_model: string | null;
  /** The SHA-256 of the instructions it was judged with (relevance_prompts.id). */
  judge_prompt: string | null;
  /** 1: judged below its monitor's bar: kept and listed with ?include=filtered, never sent by webhook. */
  filtered: Generated<number>;
  /** The id of the monitor.matches delivery this match goes out in; null when the monitor has no webhook. */
  webhook_batch: string | null;
  notified_at: string | null;
  /** Where it stands in the inbox (docs/api/replies.md). */
  status: Generated<MatchStatus>;
  /** The newest reply draft written for it ("gen_…"). */
  draft_id: string | null;
  /** The publication that answered it ("pub_…"), once published. */
  publication_id: string | null;
  /** When `status` last changed; null: never since it was found. */
  status_at: string | null;
}

export type MatchStatus = 'new' | 'drafted' | 'published' | 'dismissed';

export interface MonitorGapsTable {
  seq: Generated<number>;
  monitor_id: string;
  source: MonitorSource;
  /** JSON: ["r/name", …] of this monitor that the unread stretch concerns. */
  subreddits: string;
  from_at: string;
  to_at: string;
  recorded_at: string;
}

/** Per subreddit (lower-case, no "r/") and source: how far the poller has read, and how its last reads went. */
export interface MonitorCursorsTable {
  subreddit: string;
  source: MonitorSource;
  /** The fullname read last at `mark_at`, for people reading the table; reading goes by time and `seen`. */
  mark: string | null;
  /** The newest created_at read. */
  mark_at: string | null;
  /** JSON: { fullname: created_at } of what was read in the overlap before `mark_at` (see poller/poller.reading.ts). */
  seen: string | null;
  read_at: string | null;
  /** 'rate_limited' | 'blocked' | 'unavailable' */
  error: string | null;
  error_at: string | null;
}

export interface PollerLeasesTable {
  name: string;
  holder: string;
  /** ms since 1970 */
  expires_at: number;
  cycle: number;
}

/** The instructions matches were judged with (the judge's system prompt, the intent in it), by SHA-256: one row per distinct text. */
export interface RelevancePromptsTable {
  /** SHA-256 of `text`, hex. */
  id: string;
  text: string;
  created_at: string;
}

export type MonitorRow = Selectable<MonitorsTable>;
export type MonitorMatchRow = Selectable<MonitorMatchesTable>;
export type MonitorGapRow = Selectable<MonitorGapsTable>;
export type MonitorCursorRow = Selectable<MonitorCursorsTable>;

declare module '../../shared/db/database.ts' {
  interface Tables {
    monitors: MonitorsTable;
    monitor_matches: MonitorMatchesTable;
    monitor_gaps: MonitorGapsTable;
    monitor_cursors: MonitorCursorsTable;
    poller_leases: PollerLeasesTable;
    relevance_prompts: RelevancePromptsTable;
  }
}
