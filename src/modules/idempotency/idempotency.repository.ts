import type { Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const createIdempotencyRepository = (db: Kysely<Tables>) => ({
  /**
   * Binds the key to the resource the caller's transaction creates; false when the key is taken. One
   * statement: on PostgreSQL a concurrent binder of the same key waits for this transaction's end.
   */
  async bind(row: { account_id: string; key: string; route: string; request_hash: string; resource_id: string; created_at: string }) {
    const result = await db
      .insertInto('idempotency_keys')
      .values({ ...row, status: 'bound' })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  },

  find: (accountId: string, key: string) =>
    db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst(),

  /** Stores the answer of the request that bound the key to `resourceId`; anyone else's answer is not its outcome. */
  async complete(accountId: string, key: string, resourceId: string, response: StoredResponse) {
    await db
      .updateTable('idempotency_keys')
      .set({
        status: 'done',
        response_status: response.status,
        response_headers: JSON.stringify(response.headers),
        response_body: response.body,
      })
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .where('resource_id', '=', resourceId)
      .where('status', '=', 'bound')
      .execute();
  },

  /** Removes a key past its 24 hours, unless another request renewed it meanwhile. */
  async expire(accountId: string, key: string, createdAt: string) {
    await db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).where('created_at', '=', createdAt).execute();
  },
});
