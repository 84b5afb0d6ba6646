import type { Kysely, Migration } from 'kysely';

/**
 * From a match to a reply (docs/api/replies.md). A draft keeps what it replies to (`reply_to`, a t3_
 * post or t1_ comment), the thread it is in (the t3_ post) and the match it was written for. A match has
 * a `status` in the inbox (new, drafted, published, dismissed) and links to its draft and publication.
 * A monitor may draft a reply for each delivered match. An account has a voice used for every draft.
 * A publication keeps its subreddit, thread and the hash of its text alone, which the rails read
 * (publish.rails.ts): one reply per thread, a pace per subreddit and per hour, no same text in 24 hours.
 */
export const repliesMigration: Migration = {
  async up(db: Kysely<any>) {
    for (const column of ['reply_to', 'thread_id', 'match_id', 'edited_at']) {
      await db.schema.alterTable('generations').addColumn(column, 'text').execute();
    }

    await db.schema.alterTable('monitor_matches').addColumn('status', 'text', (c) => c.notNull().defaultTo('new')).execute();
    for (const column of ['draft_id', 'publication_id', 'status_at']) {
      await db.schema.alterTable('monitor_matches').addColumn(column, 'text').execute();
    }
    await db.schema.createIndex('monitor_matches_inbox').on('monitor_matches').columns(['account_id', 'status', 'seq']).execute();

    await db.schema.alterTable('monitors').addColumn('draft_replies', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('monitors').addColumn('draft_instructions', 'text').execute();

    await db.schema.alterTable('accounts').addColumn('voice', 'text').execute();

    for (const column of ['subreddit', 'thread_id', 'text_hash']) {
      await db.schema.alterTable('publications').addColumn(column, 'text').execute();
    }
    await db.schema.createIndex('publications_rails').on('publications').columns(['account_id', 'created_at']).execute();
  },
};
