import type { Kysely, Migration } from 'kysely';

/**
 * Boolean queries and the relevance judge (src/shared/matching/query.ts, src/modules/relevance/).
 * A monitor keeps its `query` text as given (null: keywords only), its `intent` (null: not judged)
 * and its bar. A match keeps its verdict: the score and reason, or the error that left it unjudged,
 * the model that judged it and the prompt it was judged with (in `relevance_prompts`, by its SHA-256,
 * as one monitor's prompt is the same text for every verdict). `filtered` is whether the match is
 * below its monitor's bar: stored, never sent by webhook, re-sorted when the bar changes. A ledger
 * row says how many of its matches were judged. The judge's state ('ok' | 'failing') is kept beside
 * Reddit's in `reddit_app_state` (observer 'judge'), with `detail` saying why it fails.
 */
export const relevanceMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('monitors').addColumn('query', 'text').execute();
    await db.schema.alterTable('monitors').addColumn('intent', 'text').execute();
    await db.schema.alterTable('monitors').addColumn('min_relevance', 'integer', (c) => c.notNull().defaultTo(60)).execute();

    for (const [column, type] of [
      ['relevance', 'integer'],
      ['relevance_reason', 'text'],
      ['judge_error', 'text'],
      ['judge_model', 'text'],
      ['judge_prompt', 'text'],
    ] as const) {
      await db.schema.alterTable('monitor_matches').addColumn(column, type).execute();
    }
    await db.schema.alterTable('monitor_matches').addColumn('filtered', 'integer', (c) => c.notNull().defaultTo(0)).execute();

    await db.schema.alterTable('credit_ledger').addColumn('judged_count', 'integer').execute();
    await db.schema.alterTable('reddit_app_state').addColumn('detail', 'text').execute();

    await db.schema
      .createTable('relevance_prompts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};
