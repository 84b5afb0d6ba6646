import type { Via } from '../../shared/via.ts';

export interface GenerationsTable {
  id: string;
  account_id: string;
  key_id: string | null;
  status: 'running' | 'completed' | 'failed';
  type: 'reply' | 'post';
  request: string;
  post_id: string | null;
  subreddit: string;
  title: string | null;
  body: string | null;
  model: string | null;
  usage: string | null;
  price: number;
  charged: number;
  error: string | null;
  lease_expires_at: string | null;
  created_at: string;
  completed_at: string | null;
  /** The interface of the call that made it (`Caller.via`); null for rows older than migration 0017 made without a key. */
  via: Via | null;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    generations: GenerationsTable;
  }
}
