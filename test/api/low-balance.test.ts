import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

const SECRET_KEY = 'c'.repeat(64);

describe.each(engines)('low-balance alerts (credits.low) on %s', (engine) => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true' } });
    app.reddit.posts.push({ id: 'lb1', subreddit: 'node', title: 'node', created_utc: Math.floor(Date.now() / 1000) });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  /** An account with `balance` credits, a threshold and (unless told otherwise) its own endpoint at a receiver. */
  async function account(balance: number, threshold: number | null, endpoint: string | null = receiver.url) {
    const created = await app.accountWithKey(balance);
    if (endpoint) await app.services.accountSettings.setWebhookUrl(created.accountId, endpoint);
    await app.services.accountSettings.setLowBalanceThreshold(created.accountId, threshold);
    return created;
  }
  const scrapes = (token: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, () => app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['node'] } })),
    );
  const alertsOf = (accountId: string) =>
    app.database.db.selectFrom('low_balance_alerts').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
  const lowDeliveries = async (accountId: string) =>
    (await app.services.webhooks.recentDeliveries(accountId)).filter((d) => d.event_type === 'credits.low');
  /** The webhook requests the receiver got for the account's credits.low deliveries. */
  async function delivered(accountId: string) {
    const ids = new Set((await lowDeliveries(accountId)).map((d) => d.id));
    return receiver.received.filter((r) => ids.has(String(r.headers['webhook-id'])));
  }

  it('20 concurrent scrapes crossing the threshold send exactly one signed credits.low webhook, and a grant then a fall send one more', async () => {
    const { accountId, token } = await account(30, 20);
    expect(await alertsOf(accountId)).toEqual([]);

    const first = await scrapes(token, 20);
    expect(first.map((r) => r.status)).toEqual(Array(20).fill(200));
    await Promise.all([app.services.lowBalanceAlerts.flush(), app.services.lowBalanceAlerts.flush()]);
    const [sent] = await eventually(async () => ((await delivered(accountId)).length >= 1 ? delivered(accountId) : undefined));
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
    expect(await ledgerSum(app.services.db, accountId)).toBe(10);

    const event = new Webhook(await app.services.webhooks.secretFor(accountId)).verify(sent!.body, sent!.headers as Record<string, string>);
    // Each charge takes 1 credit, one at a time: the move that crossed left 19 of 20.
    expect(event).toMatchObject({ type: 'credits.low', data: { available: 19, threshold: 20, crossed_at: expect.any(String) } });
    const alerts = await alertsOf(accountId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ available: 19, threshold: 20, sent_at: expect.any(String) });

    // Still below: more charges and more flushes send nothing more.
    await scrapes(token, 3);
    await app.services.lowBalanceAlerts.flush();
    expect(await alertsOf(accountId)).toHaveLength(1);

    await app.services.credits.grant(accountId, 20, 'top-up'); // 7 + 20 = 27, back above
    const again = await scrapes(token, 10); // down to 17: a second crossing
    expect(again.map((r) => r.status)).toEqual(Array(10).fill(200));
    await app.services.lowBalanceAlerts.flush();
    await eventually(async () => ((await delivered(accountId)).length >= 2 ? true : undefined));
    expect((await alertsOf(accountId)).map((a) => a.available)).toEqual([19, 19]);
    expect(await lowDeliveries(accountId)).toHaveLength(2);
    expect(new Set((await delivered(accountId)).map((r) => r.headers['webhook-id'])).size).toBe(2);
  });

  it('sends nothing for an account without a threshold, however low its balance goes', async () => {
    const { accountId, token } = await account(10, null);
    expect((await scrapes(token, 10)).map((r) => r.status)).toEqual(Array(10).fill(200));
    await app.services.lowBalanceAlerts.flush();
    expect(await app.services.credits.spendableBalance(accountId)).toBe(0);
    expect(await alertsOf(accountId)).toEqual([]);
    expect(await lowDeliveries(accountId)).toEqual([]);
  });

  it('marks the alert of an account without an endpoint sent and delivers nothing', async () => {
    const { accountId, token } = await account(5, 5, null);
    await scrapes(token, 1);
    await app.services.lowBalanceAlerts.flush();
    const alerts = await alertsOf(accountId);
    expect(alerts).toMatchObject([{ available: 4, threshold: 5, sent_at: expect.any(String) }]);
    expect(await app.services.webhooks.recentDeliveries(accountId)).toEqual([]);
  });

  it('an alert enqueued twice (a crash before it was marked sent) is still one delivery, received once', async () => {
    const { accountId, token } = await account(3, 3);
    await scrapes(token, 1);
    await app.services.lowBalanceAlerts.flush();
    await eventually(async () => ((await delivered(accountId)).length >= 1 ? true : undefined));
    await app.database.db.updateTable('low_balance_alerts').set({ sent_at: null }).where('account_id', '=', accountId).execute();

    await app.services.lowBalanceAlerts.flush();
    expect((await alertsOf(accountId))[0]!.sent_at).not.toBeNull();
    await eventually(async () => ((await lowDeliveries(accountId))[0]?.status === 'delivered' ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 500)); // time for a second request, were there one
    expect(await lowDeliveries(accountId)).toHaveLength(1);
    expect(await delivered(accountId)).toHaveLength(1);
  });

  it('a threshold set above the balance alerts at once, once; the same value again does not, a new one does', async () => {
    const { accountId } = await account(10, 50);
    await app.services.lowBalanceAlerts.flush();
    expect(await alertsOf(accountId)).toMatchObject([{ available: 10, threshold: 50 }]);
    await app.services.accountSettings.setLowBalanceThreshold(accountId, 50);
    expect(await alertsOf(accountId)).toHaveLength(1);
    await app.services.accountSettings.setLowBalanceThreshold(accountId, 40);
    expect((await alertsOf(accountId)).map((a) => a.threshold)).toEqual([50, 40]);
    await app.services.accountSettings.setLowBalanceThreshold(accountId, 5);
    await app.services.accountSettings.setLowBalanceThreshold(accountId, null);
    expect(await alertsOf(accountId)).toHaveLength(2);
    expect(await app.services.accountSettings.lowBalance(accountId)).toBeNull();
  });

  it('refuses a threshold that is not a whole number of credits from 1, with 422 accounts.invalid_threshold', async () => {
    const { accountId } = await account(10, null);
    for (const bad of [0, -1, 1.5, Number.NaN, 1_000_000_001]) {
      await expect(app.services.accountSettings.setLowBalanceThreshold(accountId, bad)).rejects.toMatchObject({
        code: 'accounts.invalid_threshold',
        status: 422,
      });
    }
    expect((await app.services.accountSettings.settings(accountId)).low_balance_threshold).toBeNull();
  });
});
