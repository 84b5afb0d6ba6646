/** An account's Reddit identity; the refresh token is sealed with SECRET_KEY (AES-256-GCM). */
export interface RedditConnectionsTable {
  account_id: string;
  username: string;
  refresh_token_sealed: string;
  scope: string;
  created_at: string;
  updated_at: string;
}

/** One pending authorization per row; only the SHA-256 of the state is kept. */
export interface OauthStatesTable {
  state_hash: string;
  account_id: string;
  session_hash: string;
  expires_at: string;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    reddit_connections: RedditConnectionsTable;
    oauth_states: OauthStatesTable;
  }
}
