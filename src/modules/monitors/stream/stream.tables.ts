/** The site-wide stream's tables (migration 0029_stream.ts). Ids are base-36 without the kind's prefix. */
export type StreamKind = 't3' | 't1';

export interface StreamPositionsTable {
  kind: StreamKind;
  /** Every id of the kind up to this one has been asked at least once, or skipped. */
  read_to: string;
  /** The newest `created_at` returned at or below `read_to` (an estimate after a skip): how far behind the stream is. */
  read_to_at: string;
  updated_at: string;
  /**
   * Every id created after this time (the head's when the stream first started, or when it last
   * jumped ahead) has been, or will be, asked: the poller's test for serving a subreddit monitor from
   * the stream (migration 0030). Null only between a new row's insert and its commit.
   */
  walked_since: string | null;
}

export interface StreamPendingTable {
  kind: StreamKind;
  /** Left out of its first answer: asked once more at `due_at`, then counted unavailable. */
  id: string;
  due_at: string;
  /** The hour (ISO, UTC) it was first asked in: its outcome counts there. */
  hour: string;
}

export interface StreamCoverageTable {
  /** The start of the hour (ISO, UTC) the ids were walked in. */
  hour: string;
  kind: StreamKind;
  first_id: string;
  last_id: string;
  /** Ids asked (each once; its second asking is not counted again). */
  asked: number;
  returned: number;
  /** Asked twice, never returned: deleted, removed, private, or never visible. */
  unavailable: number;
  /** Jumped over while too far behind: never asked (stream_gaps has the ranges). */
  skipped: number;
}

export interface StreamGapsTable {
  kind: StreamKind;
  from_id: string;
  to_id: string;
  recorded_at: string;
}

declare module '../../../shared/db/database.ts' {
  interface Tables {
    stream_positions: StreamPositionsTable;
    stream_pending: StreamPendingTable;
    stream_coverage: StreamCoverageTable;
    stream_gaps: StreamGapsTable;
  }
}
