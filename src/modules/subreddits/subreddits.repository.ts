import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';
import type { SubredditsTable } from './subreddits.tables.ts';

export type SubredditRow = Selectable<SubredditsTable>;

export const createSubredditsRepository = (db: Kysely<Tables>) => ({
  /** The rows of these lower-case names that exist. */
  find: (names: string[]) =>
    names.length === 0 ? Promise.resolve([]) : db.selectFrom('subreddits').selectAll().where('name', 'in', names).execute(),

  /**
   * Inserts or refreshes rows. An upsert, so scrapes that refresh the same name at once never collide,
   * and guarded on `checked_at` so a slower refresh never overwrites a newer answer.
   */
  async save(rows: SubredditRow[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('subreddits')
      .values(rows)
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet((eb) => ({
            display_name: eb.ref('excluded.display_name'),
            state: eb.ref('excluded.state'),
            nsfw: eb.ref('excluded.nsfw'),
            checked_at: eb.ref('excluded.checked_at'),
          }))
          .where('subreddits.checked_at', '<=', (eb) => eb.ref('excluded.checked_at')),
      )
      .execute();
  },
});
