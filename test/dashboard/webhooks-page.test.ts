import type { ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { freePort } from '../support/processes.ts';
import { eventually, startReceiver } from '../support/receiver.ts';
import { startUnansweredPort } from '../support/unanswered-port.ts';

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
      expect(page).toContain('<div class="table-scroll table-cards"><table class="hook-table">');
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

describe.each(engines)('the Webhooks page with private addresses allowed, on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    // A dropped connection is given up after a second here, not the production 10 s: the words are the same.
    app = await startTestApp(engine, { env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true' }, overrides: { webhookTimeoutMs: 1_000 } });
  });
  afterAll(() => app.close());

  async function member() {
    const email = uniqueEmail('private-hooks');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
    return { browser, accountId: account.id };
  }
  const sendTest = (browser: DashboardClient, url: string) =>
    browser.submit('/dashboard/webhooks', '/dashboard/webhooks/test', { webhook_url: url });

  it('refuses a test event to 0.0.0.0 all the same, saying that address reaches this server itself', async () => {
    const { browser, accountId } = await member();
    const refused = await sendTest(browser, 'https://0.0.0.0:8443/hook');
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('must not point at the unspecified address');
    expect(refused.body).toContain('reaches this server itself');
    expect(await app.services.webhooks.recentDeliveries(accountId)).toEqual([]);
  });

  it('a closed port, a port that drops connections and an unreachable address read the same: could not connect, no socket error, no duration', async () => {
    const unanswered = await startUnansweredPort();
    try {
      const { browser, accountId } = await member();
      const urls = [`http://127.0.0.1:${await freePort()}/hook`, `http://127.0.0.1:${unanswered.port}/hook`, 'https://255.255.255.255/hook'];
      for (const url of urls) expect((await sendTest(browser, url)).status).toBe(303);
      // The dropped connection gives up after the delivery timeout (shortened to a second above).
      const deliveries = await eventually(async () => {
        const list = await app.services.webhooks.recentDeliveries(accountId);
        return list.length === 3 && list.every((d) => d.attempts.length === 1) ? list : undefined;
      }, 25_000);
      for (const delivery of deliveries) {
        const [attempt] = delivery.attempts;
        expect(attempt).toMatchObject({ status_code: null, error: 'could not connect to the receiver' });
        // Counted from the attempt's start, so the next retry does not tell how long connecting took either.
        expect(Date.parse(delivery.next_attempt_at!) - Date.parse(attempt!.attempted_at)).toBe(30_000);
      }
      const page = (await browser.get('/dashboard/webhooks')).body;
      expect(page.match(/no answer <span class="muted">\(could not connect to the receiver\)<\/span><\/li>/g)).toHaveLength(3);
      expect(page).not.toMatch(/ECONN|UNREACH|EHOST|timeout|timed out|aborted|refused/i);
    } finally {
      unanswered.close();
    }
  }, 40_000);

  it('a receiver that takes the connection and closes it without answering says so, in words of its own', async () => {
    const closing = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    try {
      const { browser, accountId } = await member();
      await sendTest(browser, `http://127.0.0.1:${(closing.address() as AddressInfo).port}/hook`);
      const [delivery] = await eventually(async () => {
        const list = await app.services.webhooks.recentDeliveries(accountId);
        return list[0]?.attempts.length ? list : undefined;
      });
      expect(delivery!.attempts[0]).toMatchObject({ status_code: null, error: 'the receiver closed the connection without a valid HTTP answer' });
    } finally {
      closing.close();
    }
  });
});
