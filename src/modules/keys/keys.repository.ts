import type { Database } from '../../app/database.ts';

export interface KeyRow {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const KEY_COLUMNS = ['id', 'account_id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at'] as const;

export const createKeysRepository = (db: Database) => ({
  async insert(row: KeyRow & { fingerprint: string }): Promise<void> {
    await db.insertInto('api_keys').values(row).execute();
  },

  async findActiveNamed(accountId: string, name: string) {
    return db
      .selectFrom('api_keys')
      .select('id')
      .where('account_id', '=', accountId)
      .where('name', '=', name)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  /** The hot path of every API call: one indexed lookup by fingerprint, active keys only. */
  async findActiveByFingerprint(fingerprint: string) {
    return db
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'prefix', 'last_used_at'])
      .where('fingerprint', '=', fingerprint)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  async listByAccount(accountId: string): Promise<KeyRow[]> {
    return db
      .selectFrom('api_keys')
      .select(KEY_COLUMNS)
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  async revoke(accountId: string, where: { name?: string; prefix?: string; id?: string }, at: string) {
    let query = db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null);
    if (where.id !== undefined) query = query.where('id', '=', where.id);
    if (where.name !== undefined) query = query.where('name', '=', where.name);
    if (where.prefix !== undefined) query = query.where('prefix', '=', where.prefix);
    const result = await query.returning(KEY_COLUMNS).execute();
    return result;
  },

  async touch(id: string, at: string): Promise<void> {
    await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  },
});

export type KeysRepository = ReturnType<typeof createKeysRepository>;
