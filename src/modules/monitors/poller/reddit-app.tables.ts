/** How Reddit treated an observer of it (the monitors' poller) at its last cycle that read anything. */
export interface RedditAppStateTable {
  /** The observer: 'monitors' for the poller. */
  name: string;
  /** 'ok' | 'blocked' | 'failing' */
  state: string;
  /** ISO instant of the cycle that first saw this state. */
  since: string;
}

declare module '../../../shared/db/database.ts' {
  interface Tables {
    reddit_app_state: RedditAppStateTable;
  }
}
