/** The subreddit directory: what Reddit last said about a subreddit, keyed by its lower-case name. */
export interface SubredditsTable {
  name: string;
  display_name: string;
  state: 'ok' | 'private' | 'banned' | 'quarantined' | 'gated' | 'not_found' | 'forbidden';
  /** 1 when Reddit marks it over 18. */
  nsfw: number;
  checked_at: string;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    subreddits: SubredditsTable;
  }
}
