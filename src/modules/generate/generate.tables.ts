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
  /** A reply's parent: the t3_ post or t1_ comment it answers (post_id holds its post); null for posts and older rows. */
  reply_to: string | null;
  /** A reply's thread: the t3_ post it is under, whatever it answers. */
  thread_id: string | null;
  /** The monitor match it was written for ("mat_…"), by hand or by the monitor's draft_replies. */
  match_id: string | null;
  /** When a person last changed its text (PATCH /generations/{id}, the inbox); null: as the model wrote it. */
  edited_at: string | null;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    generations: GenerationsTable;
  }
}
