import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, type Engine } from '../support/engines.ts';
import { startSubpilot } from '../support/processes.ts';
import { REDIRECT_URI, SECRET_KEY_HEX, startPublishingApp, type PublishingApp } from '../support/publishing.ts';
import { eventually } from '../support/receiver.ts';
import {
  expectFirstAnswerTrue,
  expectOnceAndFirstOutcome,
  idOf,
  retryUntilFinal,
  send,
  type Kind,
  type KeyedRequest,
} from '../support/keyed-requests.ts';

/**
 * A client that retries with its Idempotency-Key never pays twice, whatever happened to the
 * first answer. A real `subpilot serve` takes billable requests while the upstreams hold them; then its
 * database connections are terminated, or it is killed with SIGKILL; then every request is retried with
 * its key until its answer is final. Each ran once and was charged once, each retry got the first
 * outcome, every first answer's words agree with the database, and the ledger sums to the balance.
 */
const GRANT = 100;
const PATHS: Record<Kind, string> = { scrape: '/api/v1/scrape', generate: '/api/v1/generate', publish: '/api/v1/publish' };

async function startService(app: PublishingApp, extra: Record<string, string> = {}) {
  return startSubpilot(['serve'], {
    ...app.database.env,
    REDDIT_CLIENT_ID: app.reddit.clientId,
    REDDIT_CLIENT_SECRET: app.reddit.clientSecret,
    REDDIT_API_URL: app.reddit.url,
    REDDIT_AUTH_URL: app.reddit.url,
    REDDIT_REDIRECT_URI: REDIRECT_URI,
    SECRET_KEY: SECRET_KEY_HEX,
    LLM_BASE_URL: app.llm.url,
    LLM_MODEL: 'fake-model',
    LLM_API_KEY: app.llm.apiKey,
    RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_FAILURES_PER_MINUTE: '1000000',
    REDDIT_REQUESTS_PER_MINUTE: '100000',
    JOB_LEASE_SECONDS: '2',
    ...extra,
  });
}

async function stop(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM') {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/**
 * The test's own instance on the same database: its clock can be moved past every lease, so `recover`
 * settles what a dead process left running, as a surviving worker would once the leases end.
 */
async function startFaultApp(engine: Engine) {
  let skewMs = 0;
  const app = await startPublishingApp(engine, {
    worker: false,
    env: { JOB_LEASE_SECONDS: '2' },
    overrides: () => ({ clock: () => new Date(Date.now() + skewMs) }),
  });
  app.reddit.posts.push({ id: 'fault1', subreddit: 'node', title: 'fault tolerance', created_utc: Math.floor(Date.now() / 1000) });
  const recover = async () => {
    skewMs = 10 * 60_000;
    try {
      await app.services.generate.recoverAbandoned();
      await app.services.publish.recoverAbandoned();
    } finally {
      skewMs = 0;
    }
  };
  return { app, recover };
}

let serial = 0;

/** Accounts and keyed requests: `count` of each kind, each on an account of its own so its ledger is its alone. */
async function prepare(app: PublishingApp, kinds: Record<Kind, number>): Promise<KeyedRequest[]> {
  const requests: KeyedRequest[] = [];
  for (const kind of Object.keys(kinds) as Kind[]) {
    for (let i = 0; i < kinds[kind]; i++) {
      const n = ++serial;
      const { accountId, token } = kind === 'publish' ? await app.connectedAccount(GRANT) : await app.accountWithKey(GRANT);
      const body =
        kind === 'scrape'
          ? { subreddits: ['r/node'], keywords: ['fault'] }
          : kind === 'generate'
            ? n % 2 === 0
              ? { type: 'reply', post_id: 't3_fault1', instructions: `reply ${n}` }
              : { type: 'post', subreddit: 'r/node', instructions: `post ${n}` }
            : { type: 'comment', parent: 't3_fault1', body: `Said exactly once, number ${n}.` };
      requests.push({ kind, path: PATHS[kind], accountId, token, key: `fault-${n}-${kind}`, body, grant: GRANT, first: null });
    }
  }
  return requests;
}

describe.each(engines)('retries with an Idempotency-Key after a kill -9 of the server on %s', (engine: Engine) => {
  let app: PublishingApp;
  let recover: () => Promise<void>;
  beforeAll(async () => {
    ({ app, recover } = await startFaultApp(engine));
  }, 60_000);
  afterAll(() => app.close());

  it('every request killed mid-flight runs once, is charged once, and its retry gets the first outcome', async () => {
    const requests = await prepare(app, { scrape: 3, generate: 4, publish: 3 });
    const service = await startService(app);
    let stopWorker: (() => void) | undefined;
    try {
      // Every upstream holds its requests: Reddit's search and post look-up, the model, and the comments
      // (posted on Reddit, never answered, as when the caller died).
      app.reddit.delayMs = 60_000;
      app.llm.hangNext(2);
      app.reddit.user.postWithoutAnswer(3);
      const pending = requests.map(async (request) => (request.first = await send(service.url, request)));
      const count = (table: 'scrapes' | 'generations' | 'publications') =>
        app.services.db.selectFrom(table).select('id').execute().then((rows) => rows.length);
      // Committed and waiting: 3 scrapes, 2 generations of posts (the 2 replies wait for Reddit's post, before
      // any commit), 3 publications whose comments Reddit has.
      await eventually(async () => (await count('scrapes')) === 3 && (await count('generations')) === 2 && app.reddit.user.comments.length === 3);
      await eventually(() => app.llm.requests.length === 2);
      await stop(service.child, 'SIGKILL');
      await Promise.all(pending);
      expect(requests.every((request) => request.first === null)).toBe(true);
    } finally {
      await stop(service.child, 'SIGKILL');
      app.reddit.delayMs = 0;
      app.llm.dropHanging();
      app.reddit.user.dropHeld();
    }
    try {
      // What a surviving instance does: its worker takes the stalled scrapes, its recovery settles the rest.
      stopWorker = await app.services.startWorker();
      for (const request of requests) {
        const retry = await retryUntilFinal(app.url, request, recover);
        await expectOnceAndFirstOutcome(app.services.db, request, retry, await app.services.credits.spendableBalance(request.accountId));
      }
    } finally {
      stopWorker?.();
    }
    // Each comment went to Reddit once: the retry of a publication recovery found there is its replay.
    for (const request of requests.filter((r) => r.kind === 'publish')) {
      const text = (request.body as { body: string }).body;
      expect(app.reddit.user.comments.filter((c) => c.text === text)).toHaveLength(1);
    }
  }, 120_000);
});

const postgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

postgres('retries with an Idempotency-Key after the database connections were terminated mid-request', () => {
  let app: PublishingApp;
  let recover: () => Promise<void>;
  let service: { url: string; child: ChildProcess } | undefined;
  let applicationName: string;
  beforeAll(async () => {
    ({ app, recover } = await startFaultApp('postgres'));
    const url = new URL(app.database.env.DATABASE_URL!);
    // Only this file's service carries this name, so terminating it never hits suites running in parallel.
    applicationName = `subpilot_faults_${/search_path=(\w+)/.exec(url.searchParams.get('options') ?? '')![1]}`;
    url.searchParams.set('application_name', applicationName);
    service = await startService(app, { DATABASE_URL: url.toString() });
  }, 60_000);
  afterAll(async () => {
    await stop(service?.child);
    await app?.close();
  });

  /** `select pg_terminate_backend(pid)` on every connection of the service (its pool and pg-boss's). */
  async function terminateServiceBackends() {
    // On the app's own database, where the service connects: each test app has a PostgreSQL database
    // of its own (test/support/engines.ts).
    const admin = new pg.Client({ connectionString: app.database.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()`,
        [applicationName],
      );
    } finally {
      await admin.end();
    }
  }

  it('no request runs twice, every first answer agrees with the ledger, and every retry gets the first outcome', async () => {
    const requests = await prepare(app, { scrape: 8, generate: 8, publish: 6 });
    // Upstreams slow enough that requests wait, some for a database connection, some on the upstream.
    app.reddit.delayMs = 300;
    app.reddit.user.delayMs = 300;
    const pending = requests.map(async (request) => (request.first = await send(service!.url, request)));
    let done = false;
    const settled = Promise.all(pending).then(() => (done = true));
    for (let round = 0; round < 40 && !done; round++) {
      await terminateServiceBackends();
      await new Promise((resolve) => setTimeout(resolve, 75));
    }
    await settled;
    app.reddit.delayMs = 0;
    app.reddit.user.delayMs = 0;
    // The faults showed: some answers were lost or carry an id with "answer_lost" / "outcome_unknown".
    for (const request of requests) await expectFirstAnswerTrue(app.services.db, request);

    for (const request of requests) {
      const retry = await retryUntilFinal(service!.url, request, recover);
      await expectOnceAndFirstOutcome(app.services.db, request, retry, await app.services.credits.spendableBalance(request.accountId));
    }
    const faults = requests.filter((r) => r.first === null || r.first.status >= 500 || idOf(r.kind, r.first) === undefined);
    expect(faults.length).toBeGreaterThan(0);
  }, 240_000);
});
