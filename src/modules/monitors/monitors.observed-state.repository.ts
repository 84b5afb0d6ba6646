/**
 * How an outside service treated the poller at its last cycle that used it, one row per observer
 * (table reddit_app_state): Reddit as the listings saw it ('monitors', monitors.reddit-app.ts) and the
 * language model as the relevance judge saw it ('judge', monitors.judge-state.ts). Stored, so a restart
 * or another instance taking the poller over does not announce the same change again.
 */
import type { Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';

export type Observer = 'monitors' | 'judge';

/** `since` is null only for `ok` when nothing else was ever seen; `detail` says why, for a failing judge. */
export interface ObservedState<S extends string> {
  state: S;
  since: string | null;
  detail: string | null;
}

export const createObservedStateRepository = <S extends string>(db: Kysely<Tables>, observer: Observer) => ({
  async read(): Promise<ObservedState<S>> {
    const row = await db.selectFrom('reddit_app_state').select(['state', 'since', 'detail']).where('name', '=', observer).executeTakeFirst();
    return row ? { state: row.state as S, since: row.since, detail: row.detail } : { state: 'ok' as S, since: null, detail: null };
  },

  /**
   * Stores `next` only if the state is still `current`: of two instances that saw the same change
   * (one took the poller over from the other), only one gets true, so only one tells.
   */
  async move(current: ObservedState<S>, next: { state: S; since: string; detail?: string | null }): Promise<boolean> {
    const values = { state: next.state, since: next.since, detail: next.detail ?? null };
    if (current.since === null) {
      const inserted = await db
        .insertInto('reddit_app_state')
        .values({ name: observer, ...values })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('name')
        .executeTakeFirst();
      return inserted !== undefined;
    }
    const result = await db
      .updateTable('reddit_app_state')
      .set(values)
      .where('name', '=', observer)
      .where('state', '=', current.state)
      .where('since', '=', current.since)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },
});
