import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import { createLlmClient, type LlmClient } from '../integrations/llm/llm.client.ts';
import { createRedditClient, type RedditClient } from '../integrations/reddit/reddit.client.ts';
import { createRedditUserClient, type RedditUserClient } from '../integrations/reddit/reddit.user.ts';
import { createConnectionsUsecases } from '../modules/connections/connections.usecases.ts';
import { createGenerateUsecases } from '../modules/generate/generate.usecases.ts';
import { createPublishUsecases } from '../modules/publish/publish.usecases.ts';
import { createAccountsRepository } from '../modules/accounts/accounts.repository.ts';
import { createAccountsUsecases } from '../modules/accounts/accounts.usecases.ts';
import { createCreditsUsecases } from '../modules/credits/credits.usecases.ts';
import type { RandomBytes } from '../modules/keys/keys.tokens.ts';
import { createKeysRepository } from '../modules/keys/keys.repository.ts';
import { createKeysUsecases } from '../modules/keys/keys.usecases.ts';
import { createScrapeRunner, SCRAPE_QUEUE } from '../modules/scrape/scrape.runner.ts';
import { createScrapeUsecases, toScrapeView } from '../modules/scrape/scrape.usecases.ts';
import { createWebhooksUsecases, WEBHOOK_QUEUE } from '../modules/webhooks/webhooks.usecases.ts';
import { createIdempotencyUsecases } from '../modules/idempotency/idempotency.usecases.ts';
import { createMemoryStore, createRedisStore, createSqlStore } from '../modules/ratelimit/ratelimit.stores.ts';
import { createRateLimitUsecases } from '../modules/ratelimit/ratelimit.usecases.ts';
import { createSessionsRepository } from '../modules/sessions/sessions.repository.ts';
import { createSessionsUsecases } from '../modules/sessions/sessions.usecases.ts';
import type { Config } from './config.ts';
import { createDatabase, type Database } from './database.ts';
import { createJobQueue, createLazyJobQueue, type JobQueue } from './jobs.ts';
import { migrate } from './migrations.ts';

/** The worker's safety net (stalled scrapes) runs this often. */
const RECOVERY_INTERVAL_MS = 30_000;

/** What tests (and only tests) replace: time, randomness, outside clients, an already-open database. */
export interface Overrides {
  clock?: () => Date;
  random?: RandomBytes;
  reddit?: RedditClient | null;
  llm?: LlmClient | null;
  /** Reddit on behalf of a connected person (OAuth code flow, comment, submit). */
  redditUser?: RedditUserClient | null;
  db?: Database;
  jobs?: JobQueue;
}

/** The one composition root: `serve`, the CLI and the tests all build the service here. */
export async function createServices(config: Config, overrides: Overrides = {}) {
  const db = overrides.db ?? createDatabase(config.database);
  await migrate(db);
  const clock = overrides.clock ?? (() => new Date());
  const random = overrides.random ?? randomBytes;
  const reddit = overrides.reddit !== undefined ? overrides.reddit : config.reddit && createRedditClient(config.reddit);

  const accounts = createAccountsUsecases({ accounts: createAccountsRepository(db), clock, random });
  const { generate, publish, connections } = createGeneratePublish(config, overrides, { db, clock, random, reddit });
  const jobs =
    overrides.jobs ?? createLazyJobQueue(() => createJobQueue(config.database, db, clock, config.jobs.leaseSeconds));
  // In-process news of finished scrapes, so a waiting request answers at once; other processes poll.
  const events = new EventEmitter().setMaxListeners(0);
  const webhooks = createWebhooksUsecases({
    db,
    jobs,
    clock,
    random,
    policy: { allowHttp: config.webhooks.allowHttp, allowPrivate: config.webhooks.allowPrivate },
    retryDelaySeconds: config.webhooks.retryDelaySeconds,
  });
  const runner = createScrapeRunner({
    db,
    reddit,
    clock,
    jobs,
    jobsConfig: config.jobs,
    pricePerPair: config.priceScrape,
    events,
    onSettled: async (row) => {
      if (!row.webhook_url) return;
      await webhooks.enqueue({
        accountId: row.account_id,
        scrapeId: row.id,
        url: row.webhook_url,
        type: `scrape.${row.status}`,
        data: toScrapeView(row),
      });
    },
  });

  // Counters must be shared by every instance: Redis if given, else PostgreSQL; SQLite is one process.
  const rateLimitStore = config.redisUrl
    ? await createRedisStore(config.redisUrl)
    : config.database.dialect === 'postgres'
      ? createSqlStore(db)
      : createMemoryStore();
  const rateLimit = createRateLimitUsecases({ store: rateLimitStore, clock, perMinute: config.rateLimitPerMinute });

  /** Runs the background jobs in this process (`serve` without --no-worker, and `worker`). */
  async function startWorker() {
    await jobs.work(SCRAPE_QUEUE, config.jobs.concurrency, (data) => runner.run(String(data.scrape_id)));
    await jobs.work(WEBHOOK_QUEUE, config.jobs.concurrency, (data) => webhooks.deliver(String(data.delivery_id)));
    const recover = () =>
      Promise.all([runner.recoverStalled(), generate.recoverAbandoned(), publish.recoverAbandoned()]).catch(() => undefined);
    const timer = setInterval(recover, RECOVERY_INTERVAL_MS);
    timer.unref();
    await recover();
    return () => clearInterval(timer);
  }

  return {
    config,
    db,
    accounts,
    sessions: createSessionsUsecases({
      sessions: createSessionsRepository(db),
      accounts,
      clock,
      random,
      ttlHours: config.sessionTtlHours,
      allowSignup: config.allowSignup,
    }),
    keys: createKeysUsecases({ keys: createKeysRepository(db), clock, random }),
    credits: createCreditsUsecases({ db, clock }),
    scrape: createScrapeUsecases({
      db,
      redditConfigured: reddit !== null,
      clock,
      random,
      pricePerPair: config.priceScrape,
      jobs,
      jobsConfig: config.jobs,
      events,
      assertWebhookUrl: webhooks.assertUrl,
    }),
    scrapeRunner: runner,
    rateLimit,
    idempotency: createIdempotencyUsecases({ db, clock }),
    generate,
    publish,
    connections,
    webhooks,
    startWorker,
    ping: async () => void (await sql`select 1`.execute(db)),
    async close() {
      await jobs.stop();
      await rateLimit.close();
      await db.destroy();
    },
  };
}

/** Generate, publish and the Reddit connections they post through. */
function createGeneratePublish(
  config: Config,
  overrides: Overrides,
  base: { db: Database; clock: () => Date; random: RandomBytes; reddit: RedditClient | null },
) {
  const llm = overrides.llm !== undefined ? overrides.llm : config.llm && createLlmClient(config.llm);
  const missing = [
    ...(config.reddit ? [] : ['REDDIT_CLIENT_ID']),
    ...(config.redditRedirectUri ? [] : ['REDDIT_REDIRECT_URI']),
    ...(config.secretKey ? [] : ['SECRET_KEY']),
  ];
  const redditUser =
    overrides.redditUser !== undefined
      ? overrides.redditUser
      : config.reddit && config.redditRedirectUri
        ? createRedditUserClient({ ...config.reddit, redirectUri: config.redditRedirectUri })
        : null;
  const connections = createConnectionsUsecases({ ...base, redditUser, secretKey: config.secretKey, missing });
  const generate = createGenerateUsecases({ ...base, llm, price: config.priceGenerate });
  const publish = createPublishUsecases({ ...base, connections, redditUser, generate, price: config.pricePublish });
  return { generate, publish, connections };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
