import type { Kysely, Migration } from 'kysely';

/**
 * The site-wide stream (issue 45; src/modules/monitors/stream/): how far it has walked each kind's ids
 * (`stream_positions`, one row per kind, so a restart or another instance resumes there), the ids an
 * answer left out that are asked once more (`stream_pending`), what it covered per hour and kind
 * (`stream_coverage`) and the id ranges it skipped when too far behind (`stream_gaps`). Ids are base-36
 * text as Reddit writes them; the lease is a `poller_leases` row named 'stream'.
 */
export const streamMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('stream_positions')
      .addColumn('kind', 'text', (c) => c.primaryKey())
      .addColumn('read_to', 'text', (c) => c.notNull())
      .addColumn('read_to_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('stream_pending')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('due_at', 'text', (c) => c.notNull())
      .addColumn('hour', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('stream_pending_pk', ['kind', 'id'])
      .execute();
    await db.schema
      .createTable('stream_coverage')
      .addColumn('hour', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('first_id', 'text', (c) => c.notNull())
      .addColumn('last_id', 'text', (c) => c.notNull())
      .addColumn('asked', 'integer', (c) => c.notNull())
      .addColumn('returned', 'integer', (c) => c.notNull())
      .addColumn('unavailable', 'integer', (c) => c.notNull())
      .addColumn('skipped', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('stream_coverage_pk', ['hour', 'kind'])
      .execute();
    await db.schema
      .createTable('stream_gaps')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('from_id', 'text', (c) => c.notNull())
      .addColumn('to_id', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('stream_gaps_pk', ['kind', 'from_id'])
      .execute();
  },
};
