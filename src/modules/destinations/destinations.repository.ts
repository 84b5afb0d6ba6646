import type { Insertable } from 'kysely';
import { isSqlite, locked, transaction, type Database } from '../../shared/db/database.ts';
import type { DestinationsTable, OutboxTable } from './destinations.tables.ts';

/** The columns an answer may show: never the sealed URL. */
const SHOWN = ['id', 'kind', 'name', 'url_hint', 'status', 'off_reason', 'created_at', 'confirm_expires_at'] as const;

export const createDestinationsRepository = (db: Database) => ({
  insert: (row: Insertable<DestinationsTable>) => db.insertInto('destinations').values(row).execute(),

  list: (accountId: string) => db.selectFrom('destinations').select(SHOWN).where('account_id', '=', accountId).orderBy('id', 'desc').execute(),

  find: (accountId: string, id: string) =>
    db.selectFrom('destinations').select(SHOWN).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst(),

  /** Everything the drainer needs, the sealed URL included. */
  forDrain: (id: string) => db.selectFrom('destinations').selectAll().where('id', '=', id).executeTakeFirst(),

  /**
   * Deletes a destination with its messages and their attempts, in one transaction; false when the
   * account has no such destination. Its messages are locked before their attempts are deleted, so a
   * drainer recording an answer meanwhile either commits first (its attempt is deleted too) or finds
   * the message gone (`recordAttempt`); on SQLite, BEGIN IMMEDIATE lets one writer in at a time.
   */
  remove: (accountId: string, id: string) =>
    transaction(db, async (trx) => {
      const owned = trx.selectFrom('destinations').select('id').where('account_id', '=', accountId).where('id', '=', id);
      if (!(await locked(db, owned).executeTakeFirst())) return false;
      const messages = trx.selectFrom('outbox').select('id').where('destination_id', '=', id);
      // Only the lock matters here: on SQLite there is nothing to lock, so nothing is read.
      if (!isSqlite(db)) await messages.forUpdate().execute();
      await trx.deleteFrom('outbox_attempts').where('outbox_id', 'in', messages).execute();
      await trx.deleteFrom('outbox').where('destination_id', '=', id).execute();
      await trx.deleteFrom('destinations').where('id', '=', id).execute();
      return true;
    }),

  /**
   * Messages recorded once per (destination, subject): a second enqueue of the same subject changes
   * nothing. The destination is locked first, as `remove` locks it: when it was deleted meanwhile (an
   * alerts pass that read its route just before), nothing is recorded rather than a foreign key failing.
   */
  enqueueAll: (destinationId: string, rows: Insertable<OutboxTable>[]) =>
    transaction(db, async (trx) => {
      const destination = trx.selectFrom('destinations').select('id').where('id', '=', destinationId);
      if (!(await locked(db, destination, 'share').executeTakeFirst())) return;
      // 500 rows of 10 columns stay under SQLite's 32,766 bound parameters.
      for (let i = 0; i < rows.length; i += 500) {
        await trx.insertInto('outbox').values(rows.slice(i, i + 500)).onConflict((c) => c.columns(['destination_id', 'subject']).doNothing()).execute();
      }
    }),

  message: (destinationId: string, subject: string) => db.selectFrom('outbox').selectAll().where('destination_id', '=', destinationId).where('subject', '=', subject).executeTakeFirst(),

  /**
   * Takes the destination for one drainer until `until`, when no other drainer holds it and it is
   * active, or unconfirmed (its one message: the confirmation, or the reply to a linked chat).
   */
  async claimDrain(id: string, now: string, until: string) {
    const result = await db
      .updateTable('destinations')
      .set({ draining_until: until })
      .where('id', '=', id)
      .where('status', 'in', ['active', 'unconfirmed'])
      .where((w) => w.or([w('draining_until', 'is', null), w('draining_until', '<=', now)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /** Whether a drainer holds the destination now. */
  held: async (id: string, now: string) => {
    const row = await db.selectFrom('destinations').select('draining_until').where('id', '=', id).executeTakeFirst();
    return row?.draining_until != null && row.draining_until > now;
  },

  /** The drainer holds on for another lease (before each message). */
  extendDrain: (id: string, until: string) => db.updateTable('destinations').set({ draining_until: until }).where('id', '=', id).execute(),

  /** Ends the drainer's lease and records the pace: the earliest time of the next send. */
  release: (id: string, nextSendAt: string) => db.updateTable('destinations').set({ draining_until: null, next_send_at: nextSendAt }).where('id', '=', id).execute(),

  /** The oldest message still to send: messages leave a destination in the order they were recorded. */
  nextPending: (destinationId: string) =>
    db.selectFrom('outbox').selectAll().where('destination_id', '=', destinationId).where('status', '=', 'pending').orderBy('id').limit(1).executeTakeFirst(),

  /** One attempt taken, guarded on the attempts the caller read; its lease is the due time meanwhile. */
  async claimAttempt(row: { id: string; attempts: number }, leaseUntil: string) {
    const result = await db
      .updateTable('outbox')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: leaseUntil }))
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', row.attempts)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  async recordAttempt(
    outboxId: string,
    attempt: { attempted_at: string; status_code: number | null; answer: string; error: string | null; duration_ms: number },
    outcome: Partial<Pick<OutboxTable, 'status' | 'next_attempt_at' | 'sent_at' | 'receipt' | 'error' | 'failures'>>,
  ) {
    // One commit for both: the attempt and its outcome are recorded together or not at all. The message
    // is locked first: when its destination was deleted meanwhile (`remove`), there is nothing to record.
    await transaction(db, async (trx) => {
      const message = trx.selectFrom('outbox').select('id').where('id', '=', outboxId);
      if (!(await locked(db, message).executeTakeFirst())) return;
      await trx.insertInto('outbox_attempts').values({ outbox_id: outboxId, ...attempt }).execute();
      await trx.updateTable('outbox').set(outcome).where('id', '=', outboxId).execute();
    });
  },

  /** Switches it off with its reason and fails what it still had to send; true only for the call that switched it. */
  async switchOff(id: string, reason: string) {
    const result = await db.updateTable('destinations').set({ status: 'off', off_reason: reason, draining_until: null }).where('id', '=', id).where('status', '!=', 'off').executeTakeFirst();
    await db.updateTable('outbox').set({ status: 'failed', error: reason }).where('destination_id', '=', id).where('status', '=', 'pending').execute();
    return result.numUpdatedRows > 0n;
  },

  /** An unconfirmed destination made active (its address confirmed, its chat linked); false when it was not unconfirmed. */
  async activate(id: string, set: { url_sealed?: string; url_hint?: string }) {
    const result = await db.updateTable('destinations').set({ ...set, status: 'active', confirm_expires_at: null }).where('id', '=', id).where('status', '=', 'unconfirmed').executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  rename: (accountId: string, id: string, name: string) => db.updateTable('destinations').set({ name }).where('id', '=', id).where('account_id', '=', accountId).execute(),

  /** A webhook given a new URL: active again, whatever switched it off. */
  replaceUrl: (accountId: string, id: string, set: { url_sealed: string; url_hint: string }) =>
    db.updateTable('destinations').set({ ...set, status: 'active', off_reason: null }).where('id', '=', id).where('account_id', '=', accountId).execute(),

  /** The address the account logs in with, where it is told of a switch-off by mail. */
  accountEmail: async (accountId: string) => (await db.selectFrom('accounts').select('email').where('id', '=', accountId).executeTakeFirst())?.email ?? null,

  /** Destinations with a message due, free to send, and no drainer holding them: a dead worker's, or one whose wake-up was lost. */
  stalled: (now: string) =>
    db
      .selectFrom('destinations')
      .select('id')
      .where('status', '!=', 'off')
      .where('next_send_at', '<=', now)
      .where((w) => w.or([w('draining_until', 'is', null), w('draining_until', '<=', now)]))
      .where((w) => w.exists(w.selectFrom('outbox').select('outbox.id').whereRef('outbox.destination_id', '=', 'destinations.id').where('outbox.status', '=', 'pending').where('outbox.next_attempt_at', '<=', now)))
      .execute(),

  /** The account's own webhook endpoint (dashboard, Webhooks page), where it is told of a switch-off. */
  accountWebhook: async (accountId: string) =>
    (await db.selectFrom('accounts').select('webhook_url').where('id', '=', accountId).executeTakeFirst())?.webhook_url ?? null,

  recentMessages: (destinationId: string, limit: number) =>
    db.selectFrom('outbox').selectAll().where('destination_id', '=', destinationId).orderBy('id', 'desc').limit(limit).execute(),

  attemptsOf: (outboxIds: string[]) =>
    outboxIds.length === 0 ? Promise.resolve([]) : db.selectFrom('outbox_attempts').selectAll().where('outbox_id', 'in', outboxIds).orderBy('id').execute(),
});

export type DestinationsRepository = ReturnType<typeof createDestinationsRepository>;
