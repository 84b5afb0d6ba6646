import { randomBytes } from 'node:crypto';
import { createAccountsUsecases } from '../modules/accounts/accounts.usecases.ts';
import { createCreditsUsecases } from '../modules/credits/credits.usecases.ts';
import { createKeysUsecases } from '../modules/keys/keys.usecases.ts';
import { createMonitorsOverview } from '../modules/monitors/monitors.overview.usecases.ts';
import { createStreamCoverage } from '../modules/monitors/stream/stream.coverage.usecases.ts';
import { createSessionsUsecases } from '../modules/sessions/sessions.usecases.ts';
import { ConfigError, type Config, type DatabaseTarget } from '../shared/config/config.ts';
import { streamRuns } from '../shared/config/stream.ts';
import type { RandomBytes } from '../shared/crypto/random.ts';
import { createPasswordHasher, type PasswordHasher } from '../shared/crypto/passwords.ts';
import { createDatabase, type Database } from '../shared/db/database.ts';
import { openExistingDatabase } from '../shared/db/existing.ts';
import { migrate } from '../shared/db/migrate.ts';

/** The usecases every process has, built one way for the service (container.ts) and for the CLI. */
export function createCoreUsecases(deps: { db: Database; clock: () => Date; random: RandomBytes; passwords: PasswordHasher; config: Config }) {
  const { db, clock, random, passwords, config } = deps;
  const accounts = createAccountsUsecases({ db, clock, random, passwords });
  return {
    accounts,
    sessions: createSessionsUsecases({ db, accounts, clock, random, ttlHours: config.sessionTtlHours }),
    keys: createKeysUsecases({ db, clock, random }),
    credits: createCreditsUsecases({ db, clock }),
  };
}

/**
 * A command run from the wrong directory (or with the wrong DATABASE_URL) would otherwise create an
 * empty database there and report that the account does not exist. Only the command that makes the
 * first row (`accounts create`) may set a database up; the others say where they looked and how to fix it.
 */
async function openDatabase(target: DatabaseTarget, create: boolean): Promise<Database> {
  if (create) return createDatabase(target);
  const existing = await openExistingDatabase(target);
  if ('db' in existing) return existing.db;
  const fix =
    target.dialect === 'sqlite'
      ? 'set DATABASE_URL to the file `subpilot serve` uses (e.g. DATABASE_URL=sqlite:/abs/path/data/subpilot.sqlite), or run this from the directory where `npm start` runs'
      : 'set DATABASE_URL to the database and schema `subpilot serve` uses (e.g. DATABASE_URL=postgres://user@host:5432/db)';
  throw new ConfigError(
    `no subpilot database at ${existing.missing}; this command does not create one (serve, worker and accounts create do): ${fix}`,
  );
}

/**
 * What a one-shot operator command (`accounts`, `credits`, `keys`, `monitors`) uses: the database and
 * the usecases they call. createServices (container.ts) also builds the job queue, Redis and the Reddit budget,
 * the LLM and Reddit clients and the rate limiters, whose imports alone took most of a 1.6 s command;
 * none of them is needed to change a row. `create`: set up a database that is not there yet.
 * `passwords`: the hasher (tests pass a cheap one); production cost when absent.
 */
export async function createCliServices(config: Config, options: { create: boolean; passwords?: PasswordHasher }) {
  const db = await openDatabase(config.database, options.create);
  await migrate(db);
  const clock = () => new Date();
  return {
    ...createCoreUsecases({ db, clock, random: randomBytes, passwords: options.passwords ?? createPasswordHasher(), config }),
    /** `monitors list` only: an operator reads monitors, their owners change them (API, dashboard). */
    monitors: createMonitorsOverview({ db, clock }),
    /** `monitors coverage`: `enabled` says whether this configuration runs the stream. */
    streamCoverage: createStreamCoverage({ db, clock, enabled: streamRuns(config) }),
    close: () => db.destroy(),
  };
}

export type CliServices = Awaited<ReturnType<typeof createCliServices>>;
