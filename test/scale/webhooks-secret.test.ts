import { existsSync, readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, seal } from '../../src/shared/crypto/seal.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

const SECRET_KEY_HEX = 'c'.repeat(64);
const key = Buffer.from(SECRET_KEY_HEX, 'hex');

describe.each(engines)('the webhook signing secret at rest on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SECRET_KEY: SECRET_KEY_HEX, ALLOW_HTTP_WEBHOOKS: 'true' } });
    app.reddit.posts.push({ id: 'sk1', subreddit: 'node', title: 'sealed', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  const storedSecret = async (accountId: string) =>
    (await app.services.db.selectFrom('accounts').select('webhook_secret').where('id', '=', accountId).executeTakeFirstOrThrow())
      .webhook_secret;

  it('is stored sealed with SECRET_KEY and the account id, never in clear (SQLite file and WAL included); deliveries verify; the dashboard shows it', async () => {
    const receiver = await startReceiver(0);
    try {
      const email = uniqueEmail('sealed');
      const browser = new DashboardClient(app.url);
      await browser.signUp(email);
      const account = await app.services.accounts.requireByEmail(email);
      await app.services.credits.grant(account.id, 5);
      const { token } = await app.services.keys.createKey(account.id, 'sealed');
      const body = { subreddits: ['r/node'], keywords: ['sealed'], webhook_url: receiver.url };
      expect((await app.api('POST', '/api/v1/scrape', { token, body })).status).toBe(200);
      await eventually(async () => (await app.services.webhooks.recentDeliveries(account.id))[0]?.status === 'delivered');

      const secret = await app.services.webhooks.secretFor(account.id);
      expect(secret).toMatch(/^whsec_/);
      const stored = (await storedSecret(account.id))!;
      expect(stored).not.toContain(secret.slice('whsec_'.length));
      expect(open(key, stored, account.id)).toBe(secret);
      expect(() => open(key, stored, 'another-account')).toThrow();
      if (app.database.target.dialect === 'sqlite') {
        const path = app.database.target.path;
        const files = [path, `${path}-wal`].filter(existsSync).map((file) => readFileSync(file));
        for (const bytes of files) expect(bytes.includes(Buffer.from(secret.slice('whsec_'.length)))).toBe(false);
        // The check can see plain text at all: the email is stored in clear.
        expect(files.some((bytes) => bytes.includes(Buffer.from(email)))).toBe(true);
      }

      const [delivery] = receiver.received;
      expect(() => new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>)).not.toThrow();
      expect((await browser.get('/dashboard/webhooks')).body).toContain(secret);
    } finally {
      await receiver.close();
    }
  });

  it('a secret stored in clear before sealing existed is sealed at start-up and keeps its value', async () => {
    const { accountId } = await app.accountWithKey(0);
    const clear = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    await app.services.db.updateTable('accounts').set({ webhook_secret: clear }).where('id', '=', accountId).execute();
    await app.services.webhooks.sealClearSecrets();
    const stored = (await storedSecret(accountId))!;
    expect(stored).not.toContain(clear.slice('whsec_'.length));
    expect(open(key, stored, accountId)).toBe(clear);
    expect(await app.services.webhooks.secretFor(accountId)).toBe(clear);
  });

  it('a secret sealed with another SECRET_KEY is replaced by a new one, sealed with this key', async () => {
    const { accountId } = await app.accountWithKey(0);
    const old = seal(Buffer.alloc(32, 9), `whsec_${Buffer.alloc(24, 8).toString('base64')}`, accountId);
    await app.services.db.updateTable('accounts').set({ webhook_secret: old }).where('id', '=', accountId).execute();
    const secret = await app.services.webhooks.secretFor(accountId);
    expect(secret).toMatch(/^whsec_/);
    expect(open(key, (await storedSecret(accountId))!, accountId)).toBe(secret);
  });
});

describe.each(engines)('webhooks without SECRET_KEY on %s', (engine) => {
  it('webhook_url is refused with 503 webhooks.not_configured before any charge, and the Webhooks page says why', async () => {
    const app = await startTestApp(engine, { env: { ALLOW_HTTP_WEBHOOKS: 'true' } });
    try {
      const email = uniqueEmail('nokeyhooks');
      const browser = new DashboardClient(app.url);
      await browser.signUp(email);
      const account = await app.services.accounts.requireByEmail(email);
      await app.services.credits.grant(account.id, 5);
      const { token } = await app.services.keys.createKey(account.id, 'nokey');
      const body = { subreddits: ['r/node'], keywords: ['x'], webhook_url: 'http://127.0.0.1:9/hook' };
      const response = await app.api('POST', '/api/v1/scrape', { token, body });
      expect(response.status).toBe(503);
      expect((await response.json()).code).toBe('webhooks.not_configured');
      expect(await app.services.credits.spendableBalance(account.id)).toBe(5);

      const page = await browser.get('/dashboard/webhooks');
      expect(page.status).toBe(200);
      expect(page.body).toContain('SECRET_KEY');
      expect(page.body).not.toContain('whsec_');
      const stored = await app.services.db.selectFrom('accounts').select('webhook_secret').where('id', '=', account.id).executeTakeFirstOrThrow();
      expect(stored.webhook_secret).toBeNull();
    } finally {
      await app.close();
    }
  });
});
