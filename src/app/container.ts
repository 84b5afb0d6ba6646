import { randomBytes } from 'node:crypto';
import { createRedditClient, type RedditClient } from '../integrations/reddit/reddit.client.ts';
import { createAccountsRepository } from '../modules/accounts/accounts.repository.ts';
import { createAccountsUsecases } from '../modules/accounts/accounts.usecases.ts';
import { createCreditsUsecases } from '../modules/credits/credits.usecases.ts';
import type { RandomBytes } from '../modules/keys/keys.tokens.ts';
import { createKeysRepository } from '../modules/keys/keys.repository.ts';
import { createKeysUsecases } from '../modules/keys/keys.usecases.ts';
import { createScrapeUsecases } from '../modules/scrape/scrape.usecases.ts';
import type { Config } from './config.ts';
import { createDatabase, type Database } from './database.ts';
import { migrate } from './migrations.ts';

/** What tests (and only tests) replace: time, randomness, outside clients, an already-open database. */
export interface Overrides {
  clock?: () => Date;
  random?: RandomBytes;
  reddit?: RedditClient | null;
  db?: Database;
}

/** The one composition root: `serve`, the CLI and the tests all build the service here. */
export async function createServices(config: Config, overrides: Overrides = {}) {
  const db = overrides.db ?? createDatabase(config.database);
  await migrate(db);
  const clock = overrides.clock ?? (() => new Date());
  const random = overrides.random ?? randomBytes;
  const reddit = overrides.reddit !== undefined ? overrides.reddit : config.reddit && createRedditClient(config.reddit);

  return {
    config,
    db,
    accounts: createAccountsUsecases({ accounts: createAccountsRepository(db), clock, random }),
    keys: createKeysUsecases({ keys: createKeysRepository(db), clock, random }),
    credits: createCreditsUsecases({ db, clock }),
    scrape: createScrapeUsecases({ db, reddit, clock, random, pricePerPair: config.priceScrape }),
    close: () => db.destroy(),
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
