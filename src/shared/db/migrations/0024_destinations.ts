import type { Kysely, Migration } from 'kysely';
import { isSqlite, type Database } from '../database.ts';

/**
 * Alert destinations (issue 43) and their one outbox. A destination's webhook URL is a secret, kept
 * sealed; `url_hint` is what answers show. `next_send_at` is the destination's pace: the earliest time
 * its next message may go (moved by each send, and by a 429's stated wait). `draining_until` is the
 * lease of the one worker sending to it, so its messages leave in order and at its pace. An outbox row
 * is one message to one destination, recorded once per subject (a test, a match), and every attempt
 * at it is kept with the channel's answer.
 */
export const destinationsMigration: Migration = {
  async up(db: Kysely<any>) {
    const sqlite = isSqlite(db as Database);
    await db.schema
      .createTable('destinations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('url_sealed', 'text', (c) => c.notNull())
      .addColumn('url_hint', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('off_reason', 'text')
      .addColumn('next_send_at', 'text', (c) => c.notNull())
      .addColumn('draining_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('destinations_account').on('destinations').columns(['account_id', 'id']).execute();
    await db.schema
      .createTable('outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id'))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .addColumn('receipt', 'text')
      .addColumn('error', 'text')
      .execute();
    await db.schema.createIndex('outbox_subject').on('outbox').columns(['destination_id', 'subject']).unique().execute();
    await db.schema.createIndex('outbox_queue').on('outbox').columns(['destination_id', 'status', 'id']).execute();
    await db.schema
      .createTable('outbox_attempts')
      .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('outbox_id', 'text', (c) => c.notNull().references('outbox.id'))
      .addColumn('attempted_at', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('answer', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('outbox_attempts_row').on('outbox_attempts').columns(['outbox_id', 'id']).execute();
  },
};
