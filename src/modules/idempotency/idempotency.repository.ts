import type { Database } from '../../shared/db/database.ts';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const createIdempotencyRepository = (db: Database) => ({
  /** Claims the key for this request; false when a row for it already exists (one statement, race-free). */
  async claim(row: { account_id: string; key: string; route: string; request_hash: string; created_at: string }) {
    const result = await db
      .insertInto('idempotency_keys')
      .values({ ...row, status: 'in_flight' })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  },

  find: (accountId: string, key: string) =>
    db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst(),

  async complete(accountId: string, key: string, response: StoredResponse) {
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
      .execute();
  },

  /** Removes a key so that the next request with it runs afresh (expired, abandoned, or a 5xx). */
  async release(accountId: string, key: string, createdAt?: string) {
    let query = db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key);
    if (createdAt) query = query.where('created_at', '=', createdAt);
    await query.execute();
  },
});
