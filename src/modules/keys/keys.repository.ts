import { sql, type Kysely } from 'kysely';
import type { KnownKeysSource } from './keys.known.ts';
import { compiledOnce, isSqlite, sqliteChangeMarker, transaction, type Database, type Tables } from '../../shared/db/database.ts';

export interface KeyRow {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Space-separated scopes (keys.scopes.ts); null: every scope. */
  scopes: string | null;
  monthly_credit_limit: number | null;
  expires_at: string | null;
  /** The key a roll put in this one's place. */
  replaced_by: string | null;
}

/**
 * Which key to revoke: exactly one of id, name or prefix. Without one, the update would match every
 * active key of the account, so the type allows no other shape and `revoke` checks it again at run time.
 */
export type KeySelector =
  | { id: string; name?: never; prefix?: never }
  | { name: string; id?: never; prefix?: never }
  | { prefix: string; id?: never; name?: never };

const KEY_COLUMNS = [
  'id',
  'account_id',
  'name',
  'prefix',
  'created_at',
  'last_used_at',
  'revoked_at',
  'scopes',
  'monthly_credit_limit',
  'expires_at',
  'replaced_by',
] as const;
const SELECTOR_FIELDS = ['id', 'name', 'prefix'] as const;

function selectorField(where: KeySelector, action: string) {
  const given = SELECTOR_FIELDS.filter((field) => where[field] !== undefined);
  if (given.length !== 1) {
    throw new Error(`${action} a key needs exactly one of id, name or prefix; got ${given.join(' and ') || 'none'}`);
  }
  return given[0]!;
}

/** Locks the account row, so key writes of one account queue up (SQLite's write transaction already is exclusive). */
async function lockAccount(db: Database, trx: Kysely<Tables>, accountId: string) {
  if (!isSqlite(db)) await sql`select id from accounts where id = ${accountId} for update`.execute(trx);
}

/** Keys that can still be used at `at`: not revoked and not past their expiry (a rolled key in its overlap counts). */
const usableAt = (trx: Kysely<Tables>, accountId: string, at: string) =>
  trx
    .selectFrom('api_keys')
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]));

/** Read before every request on PostgreSQL (keys.known.ts), so compiled once. */
const readGeneration = compiledOnce<{ generation: number }, []>((db) => db.selectFrom('key_generation').select('generation').where('id', '=', sql.lit(1)));

export function createKeysRepository(db: Database) {

  /**
   * What keys.known.ts reads: the counter of key writes, the rows written since (triggers of migration
   * 0021 number every write, by this code or by hand), and on SQLite the sign of another connection's commit.
   */
  const knownKeysSource: KnownKeysSource = {
    generation: async () => Number((await readGeneration(db))[0]!.generation),
    async changedSince(after) {
      const rows = await db
        .selectFrom('api_keys')
        .select(['id', 'account_id', 'prefix', 'fingerprint', 'last_used_at', 'revoked_at', 'scopes', 'monthly_credit_limit', 'expires_at'])
        .where('generation', '>', after)
        .$if(after === 0, (query) => query.where('revoked_at', 'is', null))
        .execute();
      return rows.map((row) => ({
        ...row,
        monthly_credit_limit: row.monthly_credit_limit === null ? null : Number(row.monthly_credit_limit),
      }));
    },
    changeMarker: sqliteChangeMarker(db),
  };

  return {
    knownKeysSource,

    /**
     * Inserts the key unless the account already holds `maxActive` usable keys at `at`. The account
     * row is locked first, so concurrent creations queue up and can never together exceed the cap.
     */
    async insertCapped(row: KeyRow & { fingerprint: string }, maxActive: number): Promise<'inserted' | 'limit_reached'> {
      return transaction(db, async (trx) => {
        await lockAccount(db, trx, row.account_id);
        const { active } = await usableAt(trx, row.account_id, row.created_at)
          .select((eb) => eb.fn.countAll<number>().as('active'))
          .executeTakeFirstOrThrow();
        if (Number(active) >= maxActive) return 'limit_reached';
        await trx.insertInto('api_keys').values(row).execute();
        return 'inserted';
      });
    },

    /**
     * Puts a new key in the place of the usable, not yet replaced key `where` selects, in one
     * transaction: the old key gets `replaced_by` and the expiry `build` chose, then the new key takes
     * the name the old one frees (the unique name index skips replaced keys). Null when no such key.
     */
    async replace(
      accountId: string,
      where: KeySelector,
      at: string,
      build: (old: KeyRow) => { key: KeyRow & { fingerprint: string }; oldExpiresAt: string },
    ): Promise<{ key: KeyRow; replaced: KeyRow } | null> {
      const field = selectorField(where, 'rolling');
      return transaction(db, async (trx) => {
        await lockAccount(db, trx, accountId);
        const old = await usableAt(trx, accountId, at)
          .select(KEY_COLUMNS)
          .where('replaced_by', 'is', null)
          .where(field, '=', where[field]!)
          .executeTakeFirst();
        if (!old) return null;
        const { key, oldExpiresAt } = build(old);
        const replaced = await trx
          .updateTable('api_keys')
          .set({ replaced_by: key.id, expires_at: oldExpiresAt })
          .where('id', '=', old.id)
          .returning(KEY_COLUMNS)
          .executeTakeFirstOrThrow();
        await trx.insertInto('api_keys').values(key).execute();
        const { fingerprint: _fingerprint, ...shown } = key;
        return { key: shown, replaced };
      });
    },

    async findActiveNamed(accountId: string, name: string) {
      return db
        .selectFrom('api_keys')
        .select(['id', 'expires_at'])
        .where('account_id', '=', accountId)
        .where('name', '=', name)
        .where('revoked_at', 'is', null)
        .where('replaced_by', 'is', null)
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

    async revoke(accountId: string, where: KeySelector, at: string): Promise<KeyRow[]> {
      const field = selectorField(where, 'revoking');
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
