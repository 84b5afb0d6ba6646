import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';

export const createAccountsRepository = (db: Kysely<Tables>) => ({
  /** False when the email is taken, also by a concurrent insert: the unique index decides, not a prior read. */
  async insert(row: { id: string; email: string; password_hash: string | null; created_at: string }): Promise<boolean> {
    const inserted = await db
      .insertInto('accounts')
      .values({ ...row, balance: 0 })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
  },

  findByEmail: (email: string) =>
    db.selectFrom('accounts').select(['id', 'email', 'balance', 'created_at']).where('email', '=', email).executeTakeFirst(),

  /** The only read of password_hash, kept apart so other reads never carry it around. */
  findCredentials: (email: string) =>
    db.selectFrom('accounts').select(['id', 'email', 'password_hash']).where('email', '=', email).executeTakeFirst(),

  findById: (id: string) =>
    db.selectFrom('accounts').select(['id', 'email', 'balance', 'created_at']).where('id', '=', id).executeTakeFirst(),

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  },

  settingsOf: (id: string) =>
    db.selectFrom('accounts').select(['low_balance_threshold', 'webhook_url', 'voice']).where('id', '=', id).executeTakeFirstOrThrow(),

  /**
   * A different threshold starts a new crossing state (alerted back to 0); false when it is the same
   * one, which leaves the state alone. The update locks the row like a money move does.
   */
  async setThreshold(id: string, threshold: number | null): Promise<boolean> {
    const result = await db
      .updateTable('accounts')
      .set({ low_balance_threshold: threshold, low_balance_alerted: 0 })
      .where('id', '=', id)
      .where((w) =>
        threshold === null
          ? w('low_balance_threshold', 'is not', null)
          : w.or([w('low_balance_threshold', 'is', null), w('low_balance_threshold', '!=', threshold)]),
      )
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  async setVoice(id: string, voice: string | null): Promise<void> {
    await db.updateTable('accounts').set({ voice }).where('id', '=', id).execute();
  },

  voiceOf: async (id: string): Promise<string | null> =>
    (await db.selectFrom('accounts').select('voice').where('id', '=', id).executeTakeFirst())?.voice ?? null,

  async setWebhookUrl(id: string, url: string | null): Promise<void> {
    await db.updateTable('accounts').set({ webhook_url: url }).where('id', '=', id).execute();
  },

  /** Every account, oldest first, with its count of keys that still work at `at`, as the key cap counts them. */
  list: (at: string) =>
    db
      .selectFrom('accounts as a')
      .select(['a.id', 'a.email', 'a.balance', 'a.created_at'])
      .select(sql<number>`(select count(*) from api_keys k where k.account_id = a.id and k.revoked_at is null and (k.expires_at is null or k.expires_at > ${at}))`.as('active_keys'))
      .orderBy('a.created_at')
      .orderBy('a.id')
      .execute(),
});
