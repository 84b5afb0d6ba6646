import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

const SECRET_KEY = 'e'.repeat(64);
const PASSWORD = 'correct horse battery';
const DAY_MS = 24 * 3_600_000;

describe.each(engines)('rolling the webhook signing secret on %s', (engine) => {
  let app: TestApp;
  // The app's clock: moved on by a test to see the old secret stop signing.
  let now = Date.parse('2026-11-29T10:00:00Z');
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true' }, overrides: { clock: () => new Date(now) } });
  });
  afterAll(() => app.close());

  async function member() {
    const email = uniqueEmail('roll');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
    return { browser, accountId: account.id };
  }
  /** Verified as a receiver whose clock reads the app's: the library refuses a timestamp five minutes off its own. */
  function verify(secret: string, event: { body: string; headers: Record<string, string> }) {
    vi.useFakeTimers({ toFake: ['Date'], now });
    try {
      return new Webhook(secret).verify(event.body, event.headers);
    } finally {
      vi.useRealTimers();
    }
  }
  const shownSecret = (page: string) => /<code id="signing-secret" class="token">(whsec_[^<]+)<\/code>/.exec(page)?.[1];

  /** A webhook.test event sent through the dashboard, as its receiver got it. */
  async function testEvent(browser: DashboardClient) {
    const receiver = await startReceiver(0);
    try {
      await browser.submit('/dashboard/webhooks', '/dashboard/webhooks/test', { webhook_url: receiver.url });
      await eventually(() => receiver.received.length >= 1 || undefined);
      return { body: receiver.received[0]!.body, headers: receiver.received[0]!.headers as Record<string, string> };
    } finally {
      await receiver.close();
    }
  }

  it('a roll shows a new secret with a copy button, and both secrets verify deliveries for a day, then only the new one', async () => {
    const { browser } = await member();
    const before = (await browser.get('/dashboard/webhooks')).body;
    const old = shownSecret(before)!;
    expect(before).toContain('data-copy="signing-secret"');
    expect(before).not.toContain('still signs every delivery beside it');

    const rolled = await browser.submit('/dashboard/webhooks', '/dashboard/webhooks/secret/roll', {});
    expect(rolled.status).toBe(303);
    const after = (await browser.get(rolled.location!)).body;
    const fresh = shownSecret(after)!;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(after).toContain('A new signing secret signs every delivery from now on');
    expect(after).toContain('still signs every delivery beside it until');

    const during = await testEvent(browser);
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [fresh, old]) expect(verify(secret, during)).toMatchObject({ type: 'webhook.test' });

    now += DAY_MS + 1000;
    const later = await testEvent(browser);
    expect(later.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verify(fresh, later)).toMatchObject({ type: 'webhook.test' });
    expect(() => verify(old, later)).toThrow(/No matching signature/);
    expect((await browser.get('/dashboard/webhooks')).body).not.toContain('still signs every delivery beside it');
  });

  it('a roll without the form token is refused and the secret stays', async () => {
    const { browser, accountId } = await member();
    const secret = await app.services.webhooks.secretFor(accountId);
    const refused = await browser.post('/dashboard/webhooks/secret/roll', {});
    expect(refused.status).toBe(403);
    expect(await app.services.webhooks.secretFor(accountId)).toBe(secret);
  });
});
