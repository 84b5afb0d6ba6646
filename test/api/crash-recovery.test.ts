import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config.ts';
import { createServices } from '../../src/app/container.ts';
import { createRedditClient } from '../../src/integrations/reddit/reddit.client.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(engines)('a process killed mid-scrape loses no credit on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(() => app.close());

  it('kill -9 during the Reddit call: after the lease another worker completes the scrape, charged exactly once', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    app.reddit.delayMs = 60_000;
    const child = spawn(process.execPath, ['bin/subpilot.mjs', 'serve'], {
      env: {
        ...process.env,
        ...app.database.env,
        PORT: '0',
        LOG_LEVEL: 'info',
        JOB_LEASE_SECONDS: '2',
        REDDIT_CLIENT_ID: app.reddit.clientId,
        REDDIT_CLIENT_SECRET: app.reddit.clientSecret,
        REDDIT_API_URL: app.reddit.url,
        REDDIT_AUTH_URL: app.reddit.url,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      const url = await waitFor(async () => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1]);
      const pending = fetch(`${url}/api/v1/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subreddits: ['r/node', 'r/deno'], keywords: ['x'] }),
      }).catch(() => 'connection lost');
      await waitFor(async () =>
        (await app.database.db.selectFrom('scrapes').select('id').where('account_id', '=', accountId).executeTakeFirst()) ?? undefined,
      );
      // Held, not yet charged: the spendable balance is down, the ledger untouched.
      await waitFor(async () => ((await app.services.credits.balance(accountId)) === 8 ? true : undefined));
      expect(await app.services.credits.ledgerSum(accountId)).toBe(10);
      child.kill('SIGKILL');
      expect(await pending).toBe('connection lost');
    } finally {
      child.kill('SIGKILL');
      app.reddit.delayMs = 0;
    }

    app.reddit.posts.push({ id: 'k1', subreddit: 'node', title: 'x marks', created_utc: Math.floor(Date.now() / 1000) });
    const config = loadConfig({ ...app.database.env, LOG_LEVEL: 'silent', JOB_LEASE_SECONDS: '2' });
    const reddit = createRedditClient({
      clientId: app.reddit.clientId,
      clientSecret: app.reddit.clientSecret,
      userAgent: 'test',
      apiUrl: app.reddit.url,
      authUrl: app.reddit.url,
    });
    const survivor = await createServices(config, { db: app.database.db, reddit });
    const stop = await survivor.startWorker();
    try {
      const scrape = await waitFor(async () => {
        const row = await app.database.db.selectFrom('scrapes').selectAll().where('account_id', '=', accountId).executeTakeFirst();
        return row?.status === 'completed' ? row : undefined;
      });
      // r/deno does not exist on the fake Reddit: its pair is not charged.
      expect(scrape).toMatchObject({ charged: 1, attempts: 2 });
      expect(await app.services.credits.balance(accountId)).toBe(9);
      expect(await app.services.credits.ledgerSum(accountId)).toBe(9);
      const charges = await app.database.db.selectFrom('credit_ledger').selectAll().where('account_id', '=', accountId).where('kind', '=', 'charge').execute();
      expect(charges).toHaveLength(1);
    } finally {
      stop();
    }
  });
});
