import type { Kysely, Migration } from 'kysely';

/**
 * Which interface a billable call came through (api, mcp, dashboard: see src/shared/via.ts), on what
 * it created, so a ledger entry can say it. Existing scrapes, generations and publications made with
 * a key could only have come through the API, the one interface with keys until now, so they say
 * `api`. The rest stay null: a monitor made before this came from the API or the dashboard and
 * nothing recorded which, and a row without a key names no caller.
 */
export const viaMigration: Migration = {
  async up(db: Kysely<any>) {
    for (const table of ['scrapes', 'generations', 'publications', 'monitors']) {
      await db.schema.alterTable(table).addColumn('via', 'text').execute();
    }
    for (const table of ['scrapes', 'generations', 'publications']) {
      await db.updateTable(table).set({ via: 'api' }).where('key_id', 'is not', null).execute();
    }
  },
};
