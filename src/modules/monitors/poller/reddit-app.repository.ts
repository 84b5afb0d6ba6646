/** The stored state of Reddit as the poller last saw it (one row, table reddit_app_state). */
import type { Kysely } from 'kysely';
import type { Tables } from '../../../shared/db/database.ts';
import { NEVER_TROUBLED, type RedditAppState, type RedditAppStatus } from './reddit-app.ts';

const OBSERVER = 'monitors';

export const createRedditAppRepository = (db: Kysely<Tables>) => ({
  async read(): Promise<RedditAppStatus> {
    const row = await db.selectFrom('reddit_app_state').select(['state', 'since']).where('name', '=', OBSERVER).executeTakeFirst();
    return row ? { state: row.state as RedditAppState, since: row.since } : NEVER_TROUBLED;
  },

  /**
   * Stores `next` only if the state is still `current`: of two instances that saw the same change
   * (one took the poller over from the other), only one gets true, so only one tells.
   */
  async move(current: RedditAppStatus, next: { state: RedditAppState; since: string }): Promise<boolean> {
    if (current.since === null) {
      const inserted = await db
        .insertInto('reddit_app_state')
        .values({ name: OBSERVER, ...next })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('name')
        .executeTakeFirst();
      return inserted !== undefined;
    }
    const result = await db
      .updateTable('reddit_app_state')
      .set(next)
      .where('name', '=', OBSERVER)
      .where('state', '=', current.state)
      .where('since', '=', current.since)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },
});
