import type { ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

const SECRET_KEY = 'e'.repeat(64);
const PASSWORD = 'correct horse battery';

/** A receiver that fails until `healthy` is set, then answers 200. */
async function switchableReceiver() {
  const state = { healthy: false };
  const receiver = await startReceiver(0, {
    answer: (res: ServerResponse) => {
      res.statusCode = state.healthy ? 200 : 500;
      res.end();
    },
  });
  return Object.assign(receiver, { state });
}

describe.each(engines)('the dashboard Webhooks page on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    // The default first retry delay (30 s): a failed attempt then waits long enough to be seen waiting.
    app = await startTestApp(engine, { env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true' } });
  });
  afterAll(() => app.close());

  async function member() {
    const email = uniqueEmail('hooks');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
    return { browser, accountId: account.id };
  }
  const deliveries = (accountId: string) => app.services.webhooks.recentDeliveries(accountId);
  const sendTest = (browser: DashboardClient, url: string) =>
    browser.submit('/dashboard/webhooks', '/dashboard/webhooks/test', { webhook_url: url });

  it('sends a test event that reaches the receiver signed with the account secret and is listed with its attempt', async () => {
    const receiver = await startReceiver(0);
    try {
      const { browser, accountId } = await member();
      const sent = await sendTest(browser, receiver.url);
      expect(sent.status).toBe(303);
      await eventually(() => receiver.received.length >= 1 || undefined);
      const verified = new Webhook(await app.services.webhooks.secretFor(accountId)).verify(
        receiver.received[0]!.body,
        receiver.received[0]!.headers as Record<string, string>,
      );
      expect(verified).toMatchObject({ type: 'webhook.test', data: { message: expect.any(String) } });

      await eventually(async () => (await deliveries(accountId))[0]?.status === 'delivered' || undefined);
      const page = (await browser.get(sent.location!)).body;
      expect(page).toContain('The test event was queued');
      expect(page).toContain('webhook.test');
      expect(page).toMatch(/— 200/);
      expect(page).toContain('<div class="table-scroll"><table>');
    } finally {
      await receiver.close();
    }
  });

  it('refuses a test event to a private address, by the same rule as a scrape webhook_url, and queues nothing', async () => {
    const { browser, accountId } = await member();
    const refused = await sendTest(browser, 'https://10.1.2.3/hook');
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('must not point at a private, link-local or reserved address');
    expect(refused.body).toContain('value="https://10.1.2.3/hook"');
    expect(await deliveries(accountId)).toEqual([]);
  });

  it('shows when a failed delivery is retried next, and retry now delivers it at once', async () => {
    const receiver = await switchableReceiver();
    try {
      const { browser, accountId } = await member();
      await sendTest(browser, receiver.url);
      const [waiting] = await eventually(async () => {
        const list = await deliveries(accountId);
        return list[0]?.attempts.length === 1 && list[0].status === 'pending' ? list : undefined;
      });
      const retryAt = new Date(Date.parse(waiting!.attempts[0]!.attempted_at) + 30_000).toISOString().slice(0, 16).replace('T', ' ');
      const page = (await browser.get('/dashboard/webhooks')).body;
      expect(page).toMatch(new RegExp(`next retry <time datetime="[^"]+">${retryAt}`));
      expect(page).toContain(`/dashboard/webhooks/deliveries/${waiting!.id}/retry`);

      receiver.state.healthy = true;
      const retried = await browser.submit('/dashboard/webhooks', `/dashboard/webhooks/deliveries/${waiting!.id}/retry`, {});
      expect(retried.status).toBe(303);
      expect((await browser.get(retried.location!)).body).toContain('queued to be tried again now');
      // Well before the 30 s the schedule had planned.
      const [delivered] = await eventually(async () => {
        const list = await deliveries(accountId);
        return list[0]?.status === 'delivered' ? list : undefined;
      }, 10_000);
      expect(delivered!.attempts.map((a) => a.status_code)).toEqual([500, 200]);
      expect(delivered!.next_attempt_at).toBeNull();
    } finally {
      await receiver.close();
    }
  });

  it('retry now gives a delivery whose retries ran out one more attempt, refuses a delivered one, and hides another account', async () => {
    const receiver = await switchableReceiver();
    try {
      const { browser, accountId } = await member();
      await sendTest(browser, receiver.url);
      const [first] = await eventually(async () => {
        const list = await deliveries(accountId);
        return list[0]?.attempts.length === 1 ? list : undefined;
      });
      // As if all twelve retries had failed: the schedule is over and nothing is queued for it.
      await app.database.db.updateTable('webhook_deliveries').set({ status: 'failed', attempts: 13, next_attempt_at: null }).where('id', '=', first!.id).execute();
      const failedPage = (await browser.get('/dashboard/webhooks')).body;
      expect(failedPage).toContain(`/dashboard/webhooks/deliveries/${first!.id}/retry`);
      expect(failedPage).not.toContain('next retry');

      const stranger = await member();
      const foreign = await stranger.browser.submit('/dashboard/webhooks', `/dashboard/webhooks/deliveries/${first!.id}/retry`, {});
      expect(foreign.status).toBe(404);

      receiver.state.healthy = true;
      const retried = await browser.submit('/dashboard/webhooks', `/dashboard/webhooks/deliveries/${first!.id}/retry`, {});
      expect(retried.status).toBe(303);
      const [delivered] = await eventually(async () => {
        const list = await deliveries(accountId);
        return list[0]?.status === 'delivered' ? list : undefined;
      }, 10_000);
      expect(delivered!.attempts.map((a) => a.status_code)).toEqual([500, 200]);

      const again = await browser.submit('/dashboard/webhooks', `/dashboard/webhooks/deliveries/${first!.id}/retry`, {});
      expect(again.status).toBe(409);
      expect(again.body).toContain('already reached its receiver');
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });
});
