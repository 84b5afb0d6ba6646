import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startSubpilot } from '../support/processes.ts';
import { eventually } from '../support/receiver.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const postgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
/** Local PostgreSQL trusts the test user, so any password connects; it must never reach the log. */
const PASSWORD = 'pw-never-logged-7f3a';

postgres('a `serve` process whose PostgreSQL connections drop keeps serving and reconnects', () => {
  let app: TestApp;
  let proxy: TcpProxy;
  let service: { url: string; child: ChildProcess };
  let token: string;
  let applicationName: string;
  let stdout = '';

  beforeAll(async () => {
    app = await startTestApp('postgres', { worker: false });
    app.reddit.posts.push({ id: 'o1', subreddit: 'node', title: 'outage survived', created_utc: Math.floor(Date.now() / 1000) });
    ({ token } = await app.accountWithKey(1000));
    const direct = new URL(app.database.env.DATABASE_URL!);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    // Only this file's service carries this name, so terminating it never hits suites running in parallel.
    applicationName = `subpilot_${/search_path=(\w+)/.exec(direct.searchParams.get('options') ?? '')![1]}`;
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    viaProxy.password = PASSWORD;
    viaProxy.searchParams.set('application_name', applicationName);
    service = await startSubpilot(
      ['serve'],
      {
        DATABASE_URL: viaProxy.toString(),
        REDDIT_CLIENT_ID: app.reddit.clientId,
        REDDIT_CLIENT_SECRET: app.reddit.clientSecret,
        REDDIT_API_URL: app.reddit.url,
        REDDIT_AUTH_URL: app.reddit.url,
        RATE_LIMIT_PER_MINUTE: '1000000',
      },
      { onStdout: (text) => (stdout += text) },
    );
  }, 60_000);
  afterAll(async () => {
    if (service?.child.exitCode === null) {
      const exited = new Promise((resolve) => service.child.once('exit', resolve));
      service.child.kill('SIGTERM');
      await exited;
    }
    await proxy?.close();
    await app?.close();
  });

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${service.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const scrape = (headers: Record<string, string> = {}) =>
    call('/api/v1/scrape', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ subreddits: ['r/node'], keywords: ['outage'] }),
    });

  /** `select pg_terminate_backend(pid)` on every connection of the service (its pool and pg-boss's). */
  async function terminateServiceBackends(): Promise<number> {
    // On the app's own database, where the service connects: each test app has a PostgreSQL database
    // of its own (test/support/engines.ts).
    const admin = new pg.Client({ connectionString: app.database.env.DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()) terminated`,
        [applicationName],
      );
      return rows[0].n;
    } finally {
      await admin.end();
    }
  }

  it('backends terminated mid-load: the process lives, /healthz is 200 again, the API and the job queue work', async () => {
    let stop = false;
    let rounds = 0;
    const load = (async () => {
      while (!stop) {
        await Promise.all([
          ...Array.from({ length: 8 }, () => call('/api/v1/balance').then((r) => r.arrayBuffer(), () => undefined)),
          scrape({ prefer: 'respond-async' }).then((r) => r.arrayBuffer(), () => undefined),
        ]);
        rounds++;
      }
    })();
    let terminated = 0;
    for (let i = 0; i < 3; i++) {
      const after = rounds + 2;
      await eventually(() => rounds >= after);
      terminated += await terminateServiceBackends();
    }
    stop = true;
    await load;

    expect(terminated).toBeGreaterThan(0);
    expect(service.child.exitCode).toBeNull();
    await eventually(async () => (await call('/healthz')).status === 200);
    expect((await call('/api/v1/balance')).status).toBe(200);
    const completed = await scrape();
    expect(completed.status).toBe(200);
    expect(await completed.json()).toMatchObject({ status: 'completed' });
    expect(stdout).toContain('PostgreSQL connection');
    expect(stdout).not.toContain(PASSWORD);
  }, 90_000);

  it('while the database is away /healthz answers 503, and 200 once it is back, with no restart', async () => {
    proxy.down();
    try {
      await eventually(async () => (await call('/healthz')).status === 503);
      expect((await call('/api/v1/balance')).status).toBe(503);
    } finally {
      proxy.up();
    }
    await eventually(async () => (await call('/healthz')).status === 200);
    expect((await call('/api/v1/balance')).status).toBe(200);
    expect(service.child.exitCode).toBeNull();
    expect(stdout).not.toContain(PASSWORD);
  }, 60_000);
});
