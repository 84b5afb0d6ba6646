import type { Kysely, Migration } from 'kysely';
import { isSqlite, type Database } from '../database.ts';

/**
 * Which destinations a monitor's matches go to, and how (issue 43): each match at once, or a digest
 * every hour or every day at a time in a time zone. `cursor_seq` is the storage order
 * (monitor_matches.seq) of the last match the route has handled: a route sends what comes after it,
 * so nothing found before the route existed is sent, and nothing twice. `next_digest_at` is the end of
 * the digest's current window. Deleting the monitor or the destination deletes its routes.
 */
export const alertRoutesMigration: Migration = {
  async up(db: Kysely<any>) {
    const sqlite = isSqlite(db as Database);
    await db.schema
      .createTable('monitor_routes')
      .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
      .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('frequency', 'text', (c) => c.notNull())
      .addColumn('at', 'text')
      .addColumn('time_zone', 'text')
      .addColumn('cursor_seq', sqlite ? 'integer' : 'bigint', (c) => c.notNull())
      .addColumn('next_digest_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('monitor_routes_pk', ['monitor_id', 'destination_id'])
      .execute();
    await db.schema.createIndex('monitor_routes_destination').on('monitor_routes').column('destination_id').execute();
    await db.schema.createIndex('monitor_routes_due').on('monitor_routes').columns(['frequency', 'next_digest_at']).execute();
  },
};
