import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

/** Webhook secrets are sealed with it; without it webhooks are refused (see webhooks-secret.test.ts). */
const SECRET_KEY = 'd'.repeat(64);

describe.each(engines)('signed webhooks on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true', WEBHOOK_RETRY_DELAY_SECONDS: '1' } });
    app.reddit.posts.push({ id: 'w1', subreddit: 'node', title: 'webhooks', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  it('a completed scrape is POSTed with a Standard Webhooks signature, retried after two failures, each attempt recorded', async () => {
    const receiver = await startReceiver(2);
    try {
      const { token, accountId } = await app.accountWithKey(5);
      const response = await app.api('POST', '/api/v1/scrape', {
        token,
        body: { subreddits: ['r/node'], keywords: ['webhooks'], webhook_url: receiver.url },
        headers: { prefer: 'respond-async' },
      });
      expect(response.status).toBe(202);
      const { id } = await response.json();

      await eventually(() => receiver.received.length >= 3 || undefined, 30_000);
      const secret = await app.services.webhooks.secretFor(accountId);
      const verifier = new Webhook(secret);
      for (const delivery of receiver.received) {
        const payload = verifier.verify(delivery.body, delivery.headers as Record<string, string>) as {
          type: string;
          data: { id: string; status: string; results: unknown[] };
        };
        expect(payload).toMatchObject({ type: 'scrape.completed', data: { id, status: 'completed' } });
      }
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);

      const [delivery] = await eventually(async () => {
        const deliveries = await app.services.webhooks.recentDeliveries(accountId);
        return deliveries[0]?.status === 'delivered' ? deliveries : undefined;
      });
      expect(delivery!.attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
      expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(receiver.received[2]!.body, receiver.received[2]!.headers as Record<string, string>)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it.each([
    ['a private address', 'https://10.1.2.3/hook'],
    ['the cloud metadata address', 'https://169.254.169.254/latest'],
    ['plain http to a public host', 'http://93.184.216.34/hook'],
    ['a non-URL', 'not a url'],
    ['credentials in the URL', 'https://user:pass@93.184.216.34/hook'],
  ])('refuses %s as webhook_url with 422 and charges nothing', async (_label, url) => {
    const { token, accountId } = await app.accountWithKey(5);
    const response = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/node'], keywords: ['x'], webhook_url: url },
    });
    expect(response.status).toBe(422);
    expect((await response.json()).errors[0].path).toBe('/webhook_url');
    expect(await app.services.credits.spendableBalance(accountId)).toBe(5);
  });
});

describe('webhook URLs to this machine', () => {
  it('are refused unless ALLOW_HTTP_WEBHOOKS is true', async () => {
    const app = await startTestApp('sqlite', { env: { SECRET_KEY } });
    try {
      const { token } = await app.accountWithKey(5);
      const response = await app.api('POST', '/api/v1/scrape', {
        token,
        body: { subreddits: ['r/node'], keywords: ['x'], webhook_url: 'http://127.0.0.1:9/hook' },
      });
      expect(response.status).toBe(422);
    } finally {
      await app.close();
    }
  });
});

describe('the dashboard Webhooks page', () => {
  it('shows the account signing secret and each delivery with its attempts', async () => {
    const { DashboardClient, uniqueEmail } = await import('../support/dashboard-client.ts');
    const app = await startTestApp('sqlite', { env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true' } });
    const receiver = await startReceiver(0);
    try {
      app.reddit.posts.push({ id: 'wp1', subreddit: 'node', title: 'hooks', created_utc: Math.floor(Date.now() / 1000) });
      const email = uniqueEmail('hooks');
      const browser = new DashboardClient(app.url);
      await browser.signUp(email);
      const account = await app.services.accounts.requireByEmail(email);
      await app.services.credits.grant(account.id, 5);
      const { token } = await app.services.keys.createKey(account.id, 'hooks');
      const body = { subreddits: ['r/node'], keywords: ['hooks'], webhook_url: receiver.url };
      expect((await app.api('POST', '/api/v1/scrape', { token, body })).status).toBe(200);
      await eventually(async () => (await app.services.webhooks.recentDeliveries(account.id))[0]?.status === 'delivered');

      const pageHtml = (await browser.get('/dashboard/webhooks')).body;
      expect(pageHtml).toContain(await app.services.webhooks.secretFor(account.id));
      expect(pageHtml).toContain('scrape.completed');
      expect(pageHtml).toContain('delivered');
      expect(pageHtml).toMatch(/— 200/);
    } finally {
      await receiver.close();
      await app.close();
    }
  });
});
