import type { Via } from '../../shared/via.ts';

/** `unknown`: Reddit did not answer in time; checked against the author's listings, or refunded if it never can be. */
export interface PublicationsTable {
  id: string;
  account_id: string;
  key_id: string | null;
  status: 'running' | 'published' | 'failed' | 'unknown';
  kind: 'comment' | 'post';
  target: string;
  title: string | null;
  body: string;
  generation_id: string | null;
  idempotency_key: string | null;
  request_hash: string;
  reddit_id: string | null;
  permalink: string | null;
  price: number;
  charged: number;
  error: string | null;
  /** While `running`, or `unknown` and still to be checked with Reddit: when recovery may act. */
  lease_expires_at: string | null;
  created_at: string;
  completed_at: string | null;
  /** The Reddit user it was sent as (null before migration 0008). */
  author: string | null;
  /** Recovery rounds in which Reddit could not be asked whether it went out. */
  recovery_checks: number;
  /** The interface of the call that made it (`Caller.via`); null for rows older than migration 0017 made without a key. */
  via: Via | null;
  /** "r/name" it went to, when known (a post's target, a draft's or a stored item's subreddit); the rails pace by it. */
  subreddit: string | null;
  /** The t3_ post of the thread a comment goes into, when known; one reply per thread reads it. */
  thread_id: string | null;
  /** SHA-256 of the text alone (whitespace folded, case kept): the same text anywhere, for the 24-hour rail. */
  text_hash: string | null;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    publications: PublicationsTable;
  }
}
