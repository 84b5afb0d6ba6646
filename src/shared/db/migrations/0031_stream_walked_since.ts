import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The site-wide stream remembers since when it has walked each kind's ids without a skip
 * (`stream_positions.walked_since`: its first start, or its last jump ahead), so the poller knows when
 * the stream alone may serve a subreddit monitor (issue 45; poller/poller.serving.ts). A position kept
 * from before this column is walked on from its own time: that is what it covers for certain.
 */
export const streamWalkedSinceMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('stream_positions').addColumn('walked_since', 'text').execute();
    await db.updateTable('stream_positions').set({ walked_since: sql`read_to_at` }).execute();
  },
};
