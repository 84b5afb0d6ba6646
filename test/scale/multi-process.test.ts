import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient } from '../support/dashboard-client.ts';
import { ledgerSum } from '../support/ledger.ts';
import { eventually } from '../support/receiver.ts';
import { startSubpilot } from '../support/processes.ts';

const postgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

postgres('several instances on one PostgreSQL (two `serve --no-worker`, one `worker`)', () => {
  let app: TestApp;
  let a: string;
  let b: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    app = await startTestApp('postgres', { worker: false });
    app.reddit.posts.push({ id: 'm1', subreddit: 'node', title: 'many instances', created_utc: Math.floor(Date.now() / 1000) });
    const env = {
      ...app.database.env,
      REDDIT_CLIENT_ID: app.reddit.clientId,
      REDDIT_CLIENT_SECRET: app.reddit.clientSecret,
      REDDIT_API_URL: app.reddit.url,
      REDDIT_AUTH_URL: app.reddit.url,
      RATE_LIMIT_PER_MINUTE: '1000000',
      REDDIT_REQUESTS_PER_MINUTE: '100000',
      WORKER_CONCURRENCY: '8',
    };
    const [first, second, worker] = await Promise.all([
      startSubpilot(['serve', '--no-worker'], env),
      startSubpilot(['serve', '--no-worker'], env),
      startSubpilot(['worker'], env),
    ]);
    children.push(first.child, second.child, worker.child);
    a = first.url;
    b = second.url;
  }, 60_000);
  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await app.close();
  });

  it('1,000 concurrent billable requests over both instances against a balance of 100: exactly 100 charged', async () => {
    const { accountId, token } = await app.accountWithKey(100);
    const tokens = [token];
    for (let i = 0; i < 4; i++) tokens.push((await app.services.keys.createKey(accountId, `tool-${i}`)).token);
    const responses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${i % 2 ? a : b}/api/v1/scrape`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens[i % tokens.length]}`, 'content-type': 'application/json', prefer: 'respond-async' },
          body: JSON.stringify({ subreddits: ['r/node'], keywords: ['instances'] }),
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(100);
    expect(statuses.filter((s) => s === 402)).toHaveLength(900);

    await eventually(async () => {
      const open = await app.database.db
        .selectFrom('scrapes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirstOrThrow();
      return Number(open.n) === 0;
    }, 60_000);
    const charges = await app.database.db
      .selectFrom('credit_ledger')
      .select('balance_after')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .execute();
    expect(charges).toHaveLength(100);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(0);
    expect(await ledgerSum(app.services.db, accountId)).toBe(0);
    const raw = await app.database.db.selectFrom('accounts').select(['balance', 'held']).where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(raw).toEqual({ balance: 0, held: 0 });
  }, 120_000);

  it('a key revoked in the dashboard on instance A gets 401 on its next request to instance B', async () => {
    const email = `multi-${Date.now()}@example.com`;
    const dashboard = new DashboardClient(a);
    expect((await dashboard.signUp(email)).status).toBeLessThan(400);
    const created = await dashboard.submit('/dashboard/keys', '/dashboard/keys', { name: 'zapier' });
    const token = /ak_live_[0-9a-f]{64}/.exec(created.body)![0];
    const call = () => fetch(`${b}/api/v1/balance`, { headers: { authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(200);

    const account = await app.services.accounts.requireByEmail(email);
    const [key] = await app.services.keys.listKeys(account.id);
    const revoked = await dashboard.submit(`/dashboard/keys/${key!.id}/revoke`, `/dashboard/keys/${key!.id}/revoke`, {});
    expect(revoked.status).toBeLessThan(400);
    expect((await call()).status).toBe(401);
  });
});
