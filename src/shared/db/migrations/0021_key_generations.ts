import { sql, type Kysely, type Migration } from 'kysely';
import { isSqlite, type Database } from '../database.ts';

/** The columns whose change can make a key usable or not, or change what a call may do with it. */
const KEY_STATE = 'revoked_at, expires_at, replaced_by, scopes, monthly_credit_limit, fingerprint, account_id, prefix';

/**
 * Every instance keeps the usable keys in memory (keys.known.ts) and must learn of a change made
 * elsewhere before its next request. Every insert of a key, and every change of its state, takes the
 * next number of one counter, `key_generation`, and stamps it on the row (`api_keys.generation`): an
 * instance that reads a higher counter than it holds reads only the rows stamped since. Triggers do
 * it, so a key revoked by hand in psql or sqlite3 is seen too; `last_used_at` is not state, so the
 * write that touches it takes no number. The counter is one row: on PostgreSQL its row lock is held
 * to the commit, so numbers commit in their order and a reader that sees N also sees every row
 * stamped up to N. Existing keys start at generation 1.
 */
export const keyGenerationsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('key_generation')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('generation', 'bigint', (c) => c.notNull())
      .execute();
    await db.insertInto('key_generation').values({ id: 1, generation: 1 }).execute();
    await db.schema.alterTable('api_keys').addColumn('generation', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update api_keys set generation = 1`.execute(db);
    await db.schema.createIndex('api_keys_generation').on('api_keys').column('generation').execute();

    if (isSqlite(db as Database)) {
      // SQLite's triggers cannot assign NEW, so they stamp the row after writing it (that update names no state column, so it fires nothing).
      for (const [name, event] of [['insert', 'INSERT'], ['update', `UPDATE OF ${KEY_STATE}`]]) {
        await sql
          .raw(
            `CREATE TRIGGER api_keys_generation_${name} AFTER ${event} ON api_keys BEGIN
               UPDATE key_generation SET generation = generation + 1 WHERE id = 1;
               UPDATE api_keys SET generation = (SELECT generation FROM key_generation WHERE id = 1) WHERE id = NEW.id;
             END`,
          )
          .execute(db);
      }
      return;
    }
    await sql
      .raw(
        `CREATE FUNCTION api_keys_next_generation() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           UPDATE key_generation SET generation = generation + 1 WHERE id = 1 RETURNING generation INTO NEW.generation;
           RETURN NEW;
         END $$`,
      )
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER api_keys_generation BEFORE INSERT OR UPDATE OF ${KEY_STATE} ON api_keys FOR EACH ROW EXECUTE FUNCTION api_keys_next_generation()`)
      .execute(db);
  },
};
