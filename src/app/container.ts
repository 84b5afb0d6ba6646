import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { EventEmitter } from 'node:events';
import pino, { type Logger } from 'pino';
import { createLlmClient, type LlmClient } from '../integrations/llm/llm.client.ts';
import { createRedditClient, type RedditClient, type RedditClientOptions } from '../integrations/reddit/reddit.client.ts';
import { createRedditUserClient, type RedditUserClient } from '../integrations/reddit/reddit.user.ts';
import { createConnectionsUsecases } from '../modules/connections/connections.usecases.ts';
import { createAccountSettingsUsecases } from '../modules/accounts/accounts.usecases.ts';
import { createLowBalanceAlerts } from '../modules/credits/credits.low-balance.usecases.ts';
import { createBillingUsecases } from '../modules/billing/billing.usecases.ts';
import { createStripeClient } from '../integrations/stripe/stripe.client.ts';
import { createGenerateUsecases } from '../modules/generate/generate.usecases.ts';
import { createPublishUsecases } from '../modules/publish/publish.usecases.ts';
import type { RandomBytes } from '../shared/crypto/random.ts';
import { createPasswordHasher, type PasswordHasher } from '../shared/crypto/passwords.ts';
import { createMatchDelivery } from '../modules/monitors/poller/poller.delivery.ts';
import { createMonitorPoller } from '../modules/monitors/poller/poller.usecases.ts';
import { createMatchJudging } from '../modules/monitors/poller/judging.usecases.ts';
import { createRelevanceJudge } from '../modules/relevance/relevance.usecases.ts';
import { requestsPerCycle } from '../modules/monitors/poller/poller.schedule.ts';
import { createMonitorsUsecases } from '../modules/monitors/monitors.usecases.ts';
import { createInboxUsecases, findMatchedItem, inboxIn } from '../modules/monitors/inbox/inbox.usecases.ts';
import { createScrapeRunner, SCRAPE_QUEUE } from '../modules/scrape/scrape.runner.ts';
import { createScrapeUsecases } from '../modules/scrape/scrape.usecases.ts';
import { systemResolver, type HostResolver } from '../integrations/webhooks/webhooks.http.ts';
import { createWebhooksUsecases, WEBHOOK_QUEUE } from '../modules/webhooks/webhooks.usecases.ts';
import { DESTINATION_QUEUE, OWNER_MAIL_QUEUE } from '../modules/destinations/destinations.usecases.ts';
import { createAlerting, type AlertingOverrides } from './alerting.ts';
import { createIdempotencyUsecases } from '../modules/idempotency/idempotency.usecases.ts';
import { createRateLimits } from './rate-limits.ts';
import { createAccountMail } from './account-mail.ts';
import { createAuthFailureThrottle } from '../modules/ratelimit/ratelimit.failures.ts';
import { openRedditBudget } from '../modules/ratelimit/ratelimit.budget-stores.ts';
import { createSubredditsUsecases } from '../modules/subreddits/subreddits.usecases.ts';
import type { Config } from '../shared/config/config.ts';
import { createDatabase, ping, type Database } from '../shared/db/database.ts';
import { describeDatabaseError } from '../shared/db/database.errors.ts';
import { createJobQueue, createLazyJobQueue } from '../shared/jobs/jobs.ts';
import type { JobQueue } from '../shared/jobs/jobs.queue.ts';
import { migrate } from '../shared/db/migrate.ts';
import { realSleep } from '../shared/sleep.ts';
import { createCoreUsecases } from './cli-services.ts';
import { openMonitorStream, streamFacts } from './monitor-stream.ts';
import { createStreamCoverage } from '../modules/monitors/stream/stream.coverage.usecases.ts';
import { streamPerMinute } from '../shared/config/stream.ts';
import { openRedditSource, type RedditSource } from './reddit-source.ts';

/** The worker's safety net (stalled scrapes) runs this often. */
const RECOVERY_INTERVAL_MS = 30_000;
/** Low-balance alerts not yet sent by an API call's own flush (a grant, a scrape settled by the worker) go out this often. */
const ALERTS_INTERVAL_MS = 5_000;

/** What tests (and only tests) replace: time, randomness, outside clients, an already-open database. */
export interface Overrides {
  clock?: () => Date;
  random?: RandomBytes;
  /** How dashboard passwords are hashed (tests pass argon2 at its lowest cost); production cost when absent. */
  passwords?: PasswordHasher;
  reddit?: RedditClient | null;
  llm?: LlmClient | null;
  /** Reddit on behalf of a connected person (OAuth code flow, comment, submit). */
  redditUser?: RedditUserClient | null;
  db?: Database;
  jobs?: JobQueue;
  /** DNS for webhook hosts (tests script it to check rebinding). */
  resolveHost?: HostResolver;
  /** How long a webhook attempt waits for an answer (tests shorten the 10 s the document promises). */
  webhookTimeoutMs?: number;
  /** Where Slack's and Discord's webhooks live, and how long a post waits for them (tests: the fakes). */
  chat?: AlertingOverrides['chat'];
  /** Where lines about the database and the job queue go (the request log is Fastify's own). */
  log?: Logger;
  /** Options of the Reddit client built here (ignored when `reddit` is given). */
  redditOptions?: Pick<RedditClientOptions, 'sleep' | 'timeoutMs'>;
  /** How waits pass: for the shared Reddit budget, and a waiting scrape request's pauses (tests move a pinned clock instead). */
  sleep?: (ms: number) => Promise<void>;
}

/** The one composition root: `serve`, the CLI and the tests all build the service here. */
export async function createServices(config: Config, overrides: Overrides = {}) {
  const log = overrides.log ?? pino({ level: config.logLevel });
  const db = overrides.db ?? createDatabase(config.database, log);
  await migrate(db);
  const clock = overrides.clock ?? (() => new Date());
  const random = overrides.random ?? randomBytes;
  // Reddit or the demo source (issue 44): the clients below see only its base URL; `prices` are that source's.
  const source = await openRedditSource(config, clock);
  const { prices } = source;
  // One Reddit request budget for every account and instance, kept where the rate-limit counters are.
  const budgetOptions = { redisUrl: config.redisUrl, db, perMinute: config.redditRequestsPerMinute, streamPerMinute: streamPerMinute(config.stream, config.redditRequestsPerMinute), sleep: overrides.sleep };
  const redditBudget = await openRedditBudget({ ...budgetOptions, now: () => clock().getTime() });
  const reddit =
    overrides.reddit !== undefined
      ? overrides.reddit
      : source.app && createRedditClient({ ...source.app, ...overrides.redditOptions, budget: redditBudget });

  const core = createCoreUsecases({ db, clock, random, passwords: overrides.passwords ?? createPasswordHasher(), config });
  const { generate, publish, connections, llm } = createGeneratePublish(config, source, overrides, { db, clock, random, reddit });
  const jobs =
    overrides.jobs ?? createLazyJobQueue(() => createJobQueue(config.database, db, clock, config.jobs.leaseSeconds, log));
  // In-process news of finished scrapes, so a waiting request answers at once; other processes poll.
  const events = new EventEmitter().setMaxListeners(0);
  const webhooks = createWebhooksUsecases({
    db,
    jobs,
    clock,
    random,
    policy: { allowHttp: config.webhooks.allowHttp, allowPrivate: config.webhooks.allowPrivate },
    retryDelaySeconds: config.webhooks.retryDelaySeconds,
    secretKey: config.secretKey,
    resolveHost: overrides.resolveHost ?? systemResolver,
    log,
    timeoutMs: overrides.webhookTimeoutMs,
  });
  await webhooks.sealClearSecrets();
  const { destinations, alerts, linking, mailer, close: closeAlerting } = createAlerting(config, overrides, { db, jobs, clock, random, log, webhooks, sleep: overrides.sleep ?? realSleep });
  const accountMail = createAccountMail(config, { db, jobs, clock, random, log, ...core }, mailer);
  const lowBalanceAlerts = createLowBalanceAlerts({ db, webhooks, clock });
  const billing = createBillingUsecases({
    db,
    webhooks,
    clock,
    random,
    stripe: config.billing.stripe && createStripeClient(config.billing.stripe),
    config: config.billing,
    publicUrl: config.publicUrl,
    log,
  });
  const subreddits = createSubredditsUsecases({ db, reddit, clock });
  const runner = createScrapeRunner({
    db,
    reddit,
    subreddits,
    clock,
    jobs,
    jobsConfig: config.jobs,
    prices,
    events,
    log,
    webhooks,
  });

  // The relevance judge asks the same language model as generate.
  const judge = llm && createRelevanceJudge({ llm, model: source.llm?.model ?? 'unknown' });
  const judging = createMatchJudging({ db, judge, clock, log });
  const delivery = createMatchDelivery({ db, clock, random, prices, webhooks, judging, drafts: generate, alerts });
  const holder = `${hostname()}:${process.pid}:${random(6).toString('hex')}`;
  const perCycle = requestsPerCycle(config.redditRequestsPerMinute - streamPerMinute(config.stream, config.redditRequestsPerMinute), config.monitors.intervalSeconds);
  // The site-wide stream, when REDDIT_STREAM_SHARE gives it a share: null otherwise (monitor-stream.ts). While it serves, the poller lists less.
  const monitorStream = openMonitorStream(config, { db, reddit, delivery, clock, holder, log });
  const monitorPoller = createMonitorPoller({ db, reddit, subreddits, delivery, judging, clock, config: config.monitors, prices, requestsPerCycle: perCycle, holder, log, streamCovers: monitorStream?.covers });

  const rateLimit = await createRateLimits(config, db, clock);

  /** Runs the background jobs in this process (`serve` without --no-worker, and `worker`). */
  async function startWorker() {
    await jobs.work(SCRAPE_QUEUE, config.jobs.concurrency, (data) => runner.run(String(data.scrape_id)));
    await jobs.work(WEBHOOK_QUEUE, config.jobs.concurrency, (data) => webhooks.deliver(String(data.delivery_id)));
    await jobs.work(DESTINATION_QUEUE, config.jobs.concurrency, async (data) => destinations.wake(String(data.destination_id)));
    await jobs.work(OWNER_MAIL_QUEUE, 1, (data) => destinations.mailOwnerOff(String(data.destination_id)));
    await accountMail.work();
    const recover = () =>
      Promise.all([runner.recoverStalled(), generate.recoverAbandoned(), publish.recoverAbandoned()]).catch((error) =>
        // The next sweep tries again (the database may be away for a moment); say why this one did not run.
        log.warn(describeDatabaseError(error), 'the recovery sweep failed; it runs again in 30 s'),
      );
    const timer = setInterval(recover, RECOVERY_INTERVAL_MS);
    timer.unref();
    // Auto top-ups start where the alerts go out: a crossing below the threshold is seen within 5 s.
    const alertsTimer = setInterval(() => {
      lowBalanceAlerts.flush().catch((error) => log.warn(describeDatabaseError(error), 'sending low-balance alerts failed; retried in 5 s'));
      billing.autoTopup.flush().catch((error) => log.warn(describeDatabaseError(error), 'the auto top-up pass failed; retried in 5 s'));
      alerts.sendDue().catch((error) => log.warn(describeDatabaseError(error), 'routing matches to destinations failed; retried in 5 s'));
      destinations.recoverStalled().catch((error) => log.warn(describeDatabaseError(error), 'the outbox sweep failed; retried in 5 s'));
    }, ALERTS_INTERVAL_MS);
    alertsTimer.unref();
    await recover();
    // One poller for every monitor; on several instances the lease lets one of them poll at a time.
    const stopPoller = monitorPoller.start();
    const stopStream = monitorStream?.start();
    const stopLinking = linking?.start();
    return () => {
      clearInterval(timer);
      clearInterval(alertsTimer);
      stopPoller();
      stopStream?.();
      stopLinking?.();
    };
  }

  return {
    config,
    /** Reddit's or the demo's (REDDIT_SOURCE): what its items are labelled, and the prices charged for them (`prices`). */
    redditSource: source.source,
    prices,
    db,
    log,
    ...core,
    /** Dashboard sign-up and "Forgot password?", with their mailed links where the server sends mail. */
    signup: accountMail.signup,
    passwordReset: accountMail.passwordReset,
    accountLinks: accountMail.links,
    scrape: createScrapeUsecases({
      db,
      redditConfigured: reddit !== null,
      clock,
      random,
      prices,
      jobs,
      jobsConfig: config.jobs,
      events,
      sleep: overrides.sleep ?? realSleep,
      assertWebhookUrl: webhooks.assertUrl,
    }),
    scrapeRunner: runner,
    /** `runCycle()` reads Reddit once for every monitor; the worker runs it every MONITOR_INTERVAL_SECONDS. */
    monitorPoller,
    /** The site-wide stream (`runCycle()` reads every new post and comment once); null while REDDIT_STREAM_SHARE is 0. */
    monitorStream,
    streamCoverage: createStreamCoverage({ db, clock, enabled: monitorStream !== null }),
    /** Monitors as their owners see them: create, edit, pause, delete, read their matches (free). */
    monitors: createMonitorsUsecases({
      db,
      clock,
      random,
      assertWebhookUrl: webhooks.assertUrl,
      subreddits,
      redditConfigured: reddit !== null,
      intervalSeconds: config.monitors.intervalSeconds,
      llmConfigured: judge !== null,
      limits: config.monitors,
      ...streamFacts(config, monitorStream, clock),
    }),
    /** Delivered matches with their drafts and publications: draft, dismiss, reopen (publishing goes through `publish`). */
    inbox: createInboxUsecases({ db, clock, generate }),
    subreddits,
    rateLimit,
    redditBudget,
    authFailures: createAuthFailureThrottle({ clock, perMinute: config.authFailuresPerMinute }),
    idempotency: createIdempotencyUsecases({ db, clock }),
    generate,
    publish,
    connections,
    webhooks,
    accountSettings: createAccountSettingsUsecases({ db, clock, assertWebhookUrl: webhooks.assertUrl }),
    /** `flush()` sends pending `credits.low` webhooks; the worker runs it on a timer, API calls after they charge. */
    lowBalanceAlerts,
    /** Buying credits with Stripe (Checkout packs, Stripe's events, auto top-up); says whom to ask when nothing is on sale. */
    billing,
    /** "Now" for the pages that show it; pinned by tests like every usecase's. */
    clock,
    destinations,
    /** The Telegram bot's reading of `/start <code>` (null without TELEGRAM_BOT_TOKEN); tests call `pollOnce(0)`. */
    telegramLinking: linking,
    /** Monitor → destination routes; `sendDue()` records new matches and ended digests in the outbox (the worker, every 5 s). */
    alerts,
    startWorker,
    ping: () => ping(db),
    async close() {
      await jobs.stop();
      await destinations.settle();
      closeAlerting();
      await rateLimit.close();
      await redditBudget.close();
      await source.close();
      await db.destroy();
    },
  };
}

/** Generate, publish and the Reddit connections they post through. */
function createGeneratePublish(
  config: Config,
  source: RedditSource,
  overrides: Overrides,
  base: { db: Database; clock: () => Date; random: RandomBytes; reddit: RedditClient | null },
) {
  const llm = overrides.llm !== undefined ? overrides.llm : source.llm && createLlmClient(source.llm);
  const missing = [
    ...(source.app ? [] : ['REDDIT_CLIENT_ID']),
    ...(config.redditRedirectUri ? [] : ['REDDIT_REDIRECT_URI']),
    ...(config.secretKey ? [] : ['SECRET_KEY']),
  ];
  const redditUser =
    overrides.redditUser !== undefined
      ? overrides.redditUser
      : source.app && config.redditRedirectUri
        ? createRedditUserClient({ ...source.app, redirectUri: config.redditRedirectUri })
        : null;
  const connections = createConnectionsUsecases({ ...base, redditUser, secretKey: config.secretKey, missing });
  // A reply's context comes from the account's monitor matches when it has them, and marks them in the inbox.
  const findMatched = (accountId: string, ref: string) => findMatchedItem(base.db, accountId, ref);
  const generate = createGenerateUsecases({ ...base, llm, prices: source.prices, findMatched, inbox: inboxIn });
  const publish = createPublishUsecases({ ...base, connections, redditUser, generate, prices: source.prices, rails: config.rails, locate: generate.locate });
  return { generate, publish, connections, llm };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
