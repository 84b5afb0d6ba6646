import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../../src/modules/webhooks/webhooks.signing.ts';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { engines } from '../../../test/support/engines.ts';
import { eventually, startReceiver, type Received } from '../../../test/support/receiver.ts';
import { Subpilot, verifyWebhook, WebhookVerificationError } from '../src/index.ts';

const refusal = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: unknown) => (error instanceof WebhookVerificationError ? error.reason : error));

describe.each(engines)('verifyWebhook of the TypeScript SDK, given real deliveries of the server on %s', (engine) => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let client: Subpilot;
  let accountId: string;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SECRET_KEY: 'e'.repeat(64), ALLOW_HTTP_WEBHOOKS: 'true' } });
    app.reddit.addPost({ subreddit: 'node', title: 'Signed webhooks in node' });
    receiver = await startReceiver();
    const account = await app.accountWithKey(100);
    accountId = account.accountId;
    client = new Subpilot({ apiKey: account.token, baseUrl: app.url });
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  /** Scrapes with the receiver as webhook_url and returns the delivery it gets, as received. */
  async function delivery(): Promise<{ scrapeId: string; received: Received }> {
    const before = receiver.received.length;
    const scrape = await client.createScrape({ subreddits: ['r/node'], keywords: ['webhooks'], webhook_url: receiver.url });
    const received = await eventually(() => receiver.received[before]);
    return { scrapeId: scrape.id, received };
  }

  it("accepts a real delivery signed with the account's secret and returns its event", async () => {
    const secret = await app.services.webhooks.secretFor(accountId);
    const { scrapeId, received } = await delivery();
    const event = await verifyWebhook(secret, received.headers, received.body);
    expect(event.type).toBe('scrape.completed');
    expect(event.data).toMatchObject({ id: scrapeId, status: 'completed' });
    // The same from a fetch-style Headers and the body as bytes (a Worker's or Deno's request).
    const headers = new Headers(Object.entries(received.headers).map(([name, value]) => [name, String(value)] as [string, string]));
    expect((await verifyWebhook(secret, headers, new TextEncoder().encode(received.body))).type).toBe('scrape.completed');
  });

  it('refuses a delivery tampered with, signed with another secret, or signed more than 5 minutes ago', async () => {
    const secret = await app.services.webhooks.secretFor(accountId);
    const { received } = await delivery();
    const { headers, body } = received;
    const timestamp = Number(headers['webhook-timestamp']);
    expect(await refusal(verifyWebhook(secret, headers, body.replace('completed', 'failed')))).toBe('signature');
    expect(await refusal(verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_forged' }, body))).toBe('signature');
    expect(await refusal(verifyWebhook(secret, { ...headers, 'webhook-timestamp': String(timestamp + 1) }, body))).toBe('signature');
    expect(await refusal(verifyWebhook(newWebhookSecret(randomBytes), headers, body))).toBe('signature');
    expect(await refusal(verifyWebhook(secret, { ...headers, 'webhook-signature': 'v2,AAAA' }, body))).toBe('signature');
    expect(await refusal(verifyWebhook(secret, { ...headers, 'webhook-signature': undefined }, body))).toBe('missing_headers');
    const later = (seconds: number) => ({ now: () => (timestamp + seconds) * 1000 });
    expect(await refusal(verifyWebhook(secret, headers, body, later(301)))).toBe('timestamp');
    expect(await refusal(verifyWebhook(secret, headers, body, later(-301)))).toBe('timestamp');
    expect(await refusal(verifyWebhook(secret, headers, body, later(299)))).toBe('accepted');
  });

  it('accepts either signature while a rolled secret still signs beside the new one', async () => {
    const old = await app.services.webhooks.secretFor(accountId);
    await app.services.webhooks.rollSecret(accountId);
    const current = await app.services.webhooks.secretFor(accountId);
    expect(current).not.toBe(old);
    const { received } = await delivery();
    expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [old, current]) expect((await verifyWebhook(secret, received.headers, received.body)).type).toBe('scrape.completed');
    expect(await refusal(verifyWebhook(newWebhookSecret(randomBytes), received.headers, received.body))).toBe('signature');
  });
});
