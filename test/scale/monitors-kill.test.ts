import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { createMonitor } from '../support/monitors.ts';
import { startSubpilot } from '../support/processes.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

const SECRET_KEY = 'd'.repeat(64);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(engines)('a poller killed with SIGKILL mid-cycle on %s', (engine) => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: ChildProcess | undefined;
  const env = () => ({
    ...app.database.env,
    REDDIT_CLIENT_ID: app.reddit.clientId,
    REDDIT_CLIENT_SECRET: app.reddit.clientSecret,
    REDDIT_API_URL: app.reddit.url,
    REDDIT_AUTH_URL: app.reddit.url,
    REDDIT_REQUESTS_PER_MINUTE: '100000',
    MONITOR_INTERVAL_SECONDS: '1',
    SECRET_KEY,
    ALLOW_HTTP_WEBHOOKS: 'true',
    ALLOW_PRIVATE_WEBHOOKS: 'true',
  });
  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false, env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await receiver.close();
    await app.close();
  });

  it('loses and repeats nothing: every match is stored, charged and delivered once across kills and restarts', async () => {
    // Three groups of subreddits per source and a slow Reddit: a cycle takes about a second, so a kill lands inside one.
    const names = Array.from({ length: 250 }, (_, i) => `k${i}`);
    for (const name of names) app.reddit.subreddits.set(name, 'public');
    app.reddit.delayMs = 80;
    const { accountId, token } = await app.accountWithKey(10_000);
    // At most 100 subreddits a monitor: three monitors share the reading.
    for (let start = 0; start < names.length; start += 100) {
      await createMonitor(app, token, {
        name: `kill ${start}`,
        subreddits: names.slice(start, start + 100).map((name) => `r/${name}`),
        keywords: ['restart'],
        sources: ['posts', 'comments'],
        webhook_url: receiver.url,
      });
    }
    await sleep(1100); // things from the second the monitor was created in are not its
    const stored = () =>
      app.database.db.selectFrom('monitor_matches').select(['id', 'reddit_id']).where('account_id', '=', accountId).execute();
    const listings = () => app.reddit.requests.filter((r) => /\/(new|comments)$/.test(r.path)).length;
    const expected: string[] = [];
    let adding = true;
    const producer = (async () => {
      for (let i = 0; adding; i++) {
        const at = Math.floor(Date.now() / 1000);
        const name = names[(i * 37) % names.length]!;
        const item =
          i % 2 === 0
            ? { id: `t3_${app.reddit.addPost({ subreddit: name, title: `restart ${i}`, created_utc: at }).id}` }
            : { id: `t1_${app.reddit.addComment({ subreddit: name, body: `a restart ${i}`, created_utc: at }).id}` };
        expected.push(item.id);
        if (i % 5 === 0) app.reddit.addPost({ subreddit: name, title: `nothing to see ${i}`, created_utc: at });
        await sleep(60);
      }
    })();

    // Each worker is killed inside a cycle of its own: once it holds the lease and has finished a cycle,
    // right after the 1st, 4th and 6th listing request of the next one reaches Reddit (each is answered 80 ms later).
    for (const killAfter of [1, 4, 6]) {
      const child = (await startSubpilot(['worker'], env())).child;
      worker = child;
      await eventually(async () => {
        const lease = await app.database.db.selectFrom('poller_leases').selectAll().executeTakeFirst();
        return lease?.holder.includes(`:${child.pid}:`) && stored().then((rows) => rows.length > 0);
      }, 30_000);
      await eventually(() => (listings() % 6 === 0 ? true : undefined), 10_000);
      const from = listings();
      await eventually(() => (listings() >= from + killAfter ? true : undefined), 10_000);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    worker = (await startSubpilot(['worker'], env())).child;
    await sleep(1000);
    adding = false;
    await producer;

    const all = await eventually(async () => {
      const rows = await stored();
      return rows.length >= expected.length ? rows : undefined;
    }, 40_000);
    expect(all.map((r) => r.reddit_id).sort()).toEqual([...expected].sort());
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10_000 - expected.length);
    expect(await ledgerSum(app.services.db, accountId)).toBe(10_000 - expected.length);

    // Each match in exactly one delivery (a delivery may be POSTed again after a kill, with the same webhook-id).
    const deliveries = await eventually(
      async () => {
        const byId = new Map<string, string[]>();
        for (const r of receiver.received) {
          const body = JSON.parse(r.body) as { data: { matches: { id: string }[] } };
          byId.set(String(r.headers['webhook-id']), body.data.matches.map((m) => m.id));
        }
        return [...byId.values()].flat().length >= all.length ? byId : undefined;
      },
      40_000,
    );
    const delivered = [...deliveries.values()].flat();
    expect(delivered.sort()).toEqual(all.map((r) => r.id).sort());
  }, 180_000);
});
