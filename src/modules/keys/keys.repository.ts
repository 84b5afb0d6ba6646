import { sql } from 'kysely';
import { isSqlite, precompiled, transaction, type Database } from '../../shared/db/database.ts';

export interface KeyRow {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * Which key to revoke: exactly one of id, name or prefix. Without one, the update would match every
 * active key of the account, so the type allows no other shape and `revoke` checks it again at run time.
 */
export type KeySelector =
  | { id: string; name?: never; prefix?: never }
  | { name: string; id?: never; prefix?: never }
  | { prefix: string; id?: never; name?: never };

const KEY_COLUMNS = ['id', 'account_id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at'] as const;
const SELECTOR_FIELDS = ['id', 'name', 'prefix'] as const;

export function createKeysRepository(db: Database) {
  const findByFingerprint = precompiled<
    { id: string; account_id: string; prefix: string; last_used_at: string | null; available: number },
    [fingerprint: string]
  >(
    db,
    db
      .selectFrom('api_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select(['k.id', 'k.account_id', 'k.prefix', 'k.last_used_at'])
      .select(sql<number>`a.balance - a.held`.as('available'))
      .where('k.fingerprint', '=', '')
      .where('k.revoked_at', 'is', null),
  );

  return {
    /**
     * Inserts the key unless the account already holds `maxActive` active keys. The account row is
     * locked first (SQLite's write transaction is already exclusive), so concurrent creations queue
     * up behind one another and can never together exceed the cap.
     */
    async insertCapped(row: KeyRow & { fingerprint: string }, maxActive: number): Promise<'inserted' | 'limit_reached'> {
      return transaction(db, async (trx) => {
        if (!isSqlite(db)) await sql`select id from accounts where id = ${row.account_id} for update`.execute(trx);
        const { active } = await trx
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number>().as('active'))
          .where('account_id', '=', row.account_id)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(active) >= maxActive) return 'limit_reached';
        await trx.insertInto('api_keys').values(row).execute();
        return 'inserted';
      });
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

    /**
     * The hot path of every API call: one indexed lookup by fingerprint, active keys only. It also
     * reads the account's spendable balance in the same statement, so a free balance read or a
     * request that cannot be paid for needs no second query.
     */
    async findActiveByFingerprint(fingerprint: string) {
      return (await findByFingerprint(fingerprint))[0];
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

    async revoke(accountId: string, where: KeySelector, at: string): Promise<KeyRow[]> {
      const given = SELECTOR_FIELDS.filter((field) => where[field] !== undefined);
      if (given.length !== 1) {
        throw new Error(`revoking a key needs exactly one of id, name or prefix; got ${given.join(' and ') || 'none'}`);
      }
      const field = given[0]!;
      return db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .where(field, '=', where[field]!)
        .returning(KEY_COLUMNS)
        .execute();
    },

    async touch(id: string, at: string): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}
