import { sql, type Insertable } from 'kysely';
import type { Database } from '../../shared/db/database.ts';
import type { WebhookDeliveriesTable } from './webhooks.tables.ts';

export const createWebhooksRepository = (db: Database) => ({
  /** An id already recorded is left as it is: enqueueing an event with a derived id is idempotent. */
  async insertDelivery(row: Insertable<WebhookDeliveriesTable>) {
    await db.insertInto('webhook_deliveries').values(row).onConflict((conflict) => conflict.column('id').doNothing()).execute();
  },

  findDelivery: (id: string) => db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst(),

  findForAccount: (accountId: string, id: string) =>
    db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst(),

  /**
   * Takes a due pending delivery for one attempt, guarded on what the caller read (attempts and due
   * time), so two jobs for the same delivery never both attempt it; `leaseUntil` holds off others meanwhile.
   */
  async claimAttempt(delivery: { id: string; attempts: number; next_attempt_at: string | null }, leaseUntil: string) {
    const result = await db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: leaseUntil })
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', delivery.attempts)
      .where((w) => (delivery.next_attempt_at === null ? w('next_attempt_at', 'is', null) : w('next_attempt_at', '=', delivery.next_attempt_at)))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /** A pending or failed delivery of the account becomes due at `now`; false when there is none such. */
  async makeDue(accountId: string, id: string, now: string) {
    const result = await db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: now })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('status', 'in', ['pending', 'failed'])
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  async recordAttempt(
    deliveryId: string,
    attempt: { attempted_at: string; status_code: number | null; error: string | null; duration_ms: number },
    outcome: { status: 'pending' | 'delivered' | 'failed'; delivered_at: string | null; next_attempt_at: string | null },
  ) {
    await db.insertInto('webhook_attempts').values({ delivery_id: deliveryId, ...attempt }).execute();
    await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ ...outcome, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', deliveryId)
      .execute();
  },

  secretOf: (accountId: string) =>
    db.selectFrom('accounts').select(['webhook_secret', 'webhook_secret_previous', 'webhook_secret_previous_until']).where('id', '=', accountId).executeTakeFirst(),

  /** A roll, guarded on the secret the caller replaced: of two rolls at once, one wins and the other sees false. */
  async rollSecret(accountId: string, expected: string, next: string, previousUntil: string) {
    const result = await db
      .updateTable('accounts')
      .set({ webhook_secret: next, webhook_secret_previous: expected, webhook_secret_previous_until: previousUntil })
      .where('id', '=', accountId)
      .where('webhook_secret', '=', expected)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /** Sets the (sealed) secret only if none exists, so two instances racing to create one agree on the first. */
  async setSecretIfMissing(accountId: string, secret: string) {
    await db.updateTable('accounts').set({ webhook_secret: secret }).where('id', '=', accountId).where('webhook_secret', 'is', null).execute();
  },

  /** Replaces the stored value only if it is still `expected` (another instance may have changed it). */
  async replaceSecret(accountId: string, expected: string, next: string) {
    await db.updateTable('accounts').set({ webhook_secret: next }).where('id', '=', accountId).where('webhook_secret', '=', expected).execute();
  },

  /** Accounts whose stored secret starts with `prefix` (the form secrets had before they were sealed). */
  findSecretsStartingWith: (prefix: string) =>
    // substr, not LIKE: the prefix's "_" would be a wildcard.
    db.selectFrom('accounts').select(['id', 'webhook_secret']).where(sql`substr(webhook_secret, 1, ${prefix.length})`, '=', prefix).execute(),

  listDeliveries: (accountId: string, limit: number) =>
    db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').limit(limit).execute(),

  listAttempts: (deliveryIds: string[]) =>
    deliveryIds.length === 0
      ? Promise.resolve([])
      : db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('id').execute(),
});
