/** How an outside service treated the poller (monitors.observed-state.repository.ts): Reddit ('monitors') and the language model ('judge'). */
export interface RedditAppStateTable {
  /** The observer: 'monitors' for the poller's Reddit reads, 'judge' for its relevance judge. */
  name: string;
  /** 'ok' | 'blocked' | 'failing' */
  state: string;
  /** ISO instant of the cycle that first saw this state. */
  since: string;
  /** Why the judge fails, in words; null for Reddit and while ok. */
  detail: string | null;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    reddit_app_state: RedditAppStateTable;
  }
}
