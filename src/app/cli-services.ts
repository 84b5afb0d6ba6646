import { randomBytes } from 'node:crypto';
import { createAccountsUsecases } from '../modules/accounts/accounts.usecases.ts';
import { createCreditsUsecases } from '../modules/credits/credits.usecases.ts';
import { createKeysUsecases } from '../modules/keys/keys.usecases.ts';
import { createMonitorsOverview } from '../modules/monitors/monitors.usecases.ts';
import { createSessionsUsecases } from '../modules/sessions/sessions.usecases.ts';
import type { Config } from '../shared/config/config.ts';
import type { RandomBytes } from '../shared/crypto/random.ts';
import { createDatabase, type Database } from '../shared/db/database.ts';
import { migrate } from '../shared/db/migrate.ts';

/**
 * What a one-shot operator command (`accounts`, `credits`, `keys`) uses: the database and four
 * usecases. createServices (container.ts) also builds the job queue, Redis and the Reddit budget,
 * the LLM and Reddit clients and the rate limiters, whose imports alone took most of a 1.6 s command;
 * none of them is needed to change a row.
 */
/** The usecases every process has, built one way for the service (container.ts) and for the CLI. */
export function createCoreUsecases(deps: { db: Database; clock: () => Date; random: RandomBytes; config: Config }) {
  const { db, clock, random, config } = deps;
  const accounts = createAccountsUsecases({ db, clock, random });
  return {
    accounts,
    sessions: createSessionsUsecases({ db, accounts, clock, random, ttlHours: config.sessionTtlHours, allowSignup: config.allowSignup }),
    keys: createKeysUsecases({ db, clock, random }),
    credits: createCreditsUsecases({ db, clock }),
  };
}

export async function createCliServices(config: Config) {
  const db = createDatabase(config.database);
  await migrate(db);
  const clock = () => new Date();
  return {
    ...createCoreUsecases({ db, clock, random: randomBytes, config }),
    /** `monitors list` only: an operator reads monitors, their owners change them (API, dashboard). */
    monitors: createMonitorsOverview({ db, clock }),
    close: () => db.destroy(),
  };
}

export type CliServices = Awaited<ReturnType<typeof createCliServices>>;
