export interface RateLimitWindowsTable {
  key_id: string;
  window_start: number;
  count: number;
}

/** The shared Reddit request budget: one row per consumer (an account id, or "system"). */
export interface RedditBudgetTable {
  consumer: string;
  /** Start of the window `used` counts in, ms since the epoch. */
  window_start: number;
  used: number;
  /** The consumer competes for the budget until then, ms since the epoch. */
  active_until: number;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    rate_limit_windows: RateLimitWindowsTable;
    reddit_budget: RedditBudgetTable;
  }
}
