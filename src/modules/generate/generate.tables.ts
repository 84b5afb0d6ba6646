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
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    generations: GenerationsTable;
  }
}
