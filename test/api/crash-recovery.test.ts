import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config.ts';
import { createServices } from '../../src/app/container.ts';
import { SCRAPE_LEASE_MS } from '../../src/modules/scrape/scrape.usecases.ts';
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

  it('kill -9 during the Reddit call, then recovery after the lease refunds the charge exactly once', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    app.reddit.delayMs = 60_000;
    const child = spawn(process.execPath, ['bin/subpilot.mjs', 'serve'], {
      env: {
        ...process.env,
        ...app.database.env,
        PORT: '0',
        LOG_LEVEL: 'info',
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
      expect(await app.services.credits.balance(accountId)).toBe(8);
      child.kill('SIGKILL');
      expect(await pending).toBe('connection lost');
    } finally {
      child.kill('SIGKILL');
      app.reddit.delayMs = 0;
    }

    const later = () => new Date(Date.now() + SCRAPE_LEASE_MS + 1000);
    const config = loadConfig({ ...app.database.env, LOG_LEVEL: 'silent' });
    const restarted = await createServices(config, { db: app.database.db, reddit: null, clock: later });
    expect(await restarted.scrape.recoverAbandoned()).toBe(1);
    expect(await restarted.scrape.recoverAbandoned()).toBe(0);
    expect(await app.services.credits.balance(accountId)).toBe(10);
    expect(await app.services.credits.ledgerSum(accountId)).toBe(10);
    const [scrape] = await app.database.db.selectFrom('scrapes').selectAll().where('account_id', '=', accountId).execute();
    expect(scrape).toMatchObject({ status: 'failed', charged: 0 });
  });
});
