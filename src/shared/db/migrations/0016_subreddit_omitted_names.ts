import type { Kysely, Migration } from 'kysely';

/**
 * `/api/info` leaves out banned subreddits as well as missing ones, and until now every
 * name it left out was recorded `not_found` without asking its about page. From now on a recorded
 * `not_found` comes from the about page and stands while `/api/info` keeps leaving the name out; the
 * old ones may be banned subreddits, so they are forgotten and asked again at the next look-up.
 */
export const subredditOmittedNamesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.deleteFrom('subreddits').where('state', '=', 'not_found').execute();
  },
};
