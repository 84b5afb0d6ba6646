import type { Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';
import type { OauthStatesTable, RedditConnectionsTable } from './connections.tables.ts';

export type ConnectionRow = RedditConnectionsTable;

export const createConnectionsRepository = (db: Kysely<Tables>) => ({
  find: (accountId: string) =>
    db.selectFrom('reddit_connections').selectAll().where('account_id', '=', accountId).executeTakeFirst(),

  /** Connecting again (another Reddit user, say) replaces the previous identity. */
  async upsert(row: ConnectionRow): Promise<void> {
    await db
      .insertInto('reddit_connections')
      .values(row)
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet({
          username: row.username,
          refresh_token_sealed: row.refresh_token_sealed,
          scope: row.scope,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  },

  async saveRefreshToken(accountId: string, sealed: string, at: string): Promise<void> {
    await db
      .updateTable('reddit_connections')
      .set({ refresh_token_sealed: sealed, updated_at: at })
      .where('account_id', '=', accountId)
      .execute();
  },

  async delete(accountId: string): Promise<void> {
    await db.deleteFrom('reddit_connections').where('account_id', '=', accountId).execute();
  },

  async insertState(row: OauthStatesTable, now: string): Promise<void> {
    await db.deleteFrom('oauth_states').where('expires_at', '<=', now).execute();
    await db.insertInto('oauth_states').values(row).execute();
  },

  /** Single use: the row is gone once read, so a replayed callback finds nothing. */
  async takeState(stateHash: string): Promise<OauthStatesTable | undefined> {
    const row = await db.selectFrom('oauth_states').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
    if (row) await db.deleteFrom('oauth_states').where('state_hash', '=', stateHash).execute();
    return row;
  },
});

export type ConnectionsRepository = ReturnType<typeof createConnectionsRepository>;
