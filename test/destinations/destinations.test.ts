import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { startFakeDiscord, startFakeSlack, type FakeChat } from '../support/fake-chat-webhooks.ts';
import { pinnedClock } from '../support/monitors.ts';
import { SECRET_KEY_HEX } from '../support/publishing.ts';

/*
 * Destinations through the API, and their outbox drained as the worker drains it: the drain is called
 * here with a pinned clock whose waits move it, and the fakes' clocks follow it, so a test of pacing or
 * of a 429 waits for nothing. One test runs the real worker, end to end.
 */
describe.each(engines)('destinations on %s', (engine) => {
  let app: TestApp;
  let slack: FakeChat;
  let discord: FakeChat;
  let token: string;
  let accountId: string;
  const clock = pinnedClock();
  /** The clock each wait moved, and when: a pace or a 429 shows in these, not in the test's duration. */
  const waits: number[] = [];

  beforeAll(async () => {
    [slack, discord] = await Promise.all([startFakeSlack(), startFakeDiscord()]);
    slack.now = discord.now = () => clock.now().getTime();
    app = await startTestApp(engine, {
      worker: false,
      env: { SECRET_KEY: SECRET_KEY_HEX },
      overrides: {
        clock: clock.now,
        sleep: async (ms) => {
          waits.push(ms);
          clock.advance(ms / 1000);
        },
        chat: { bases: { slack: [slack.url], discord: [discord.url] }, timeoutMs: 500 },
      },
    });
    ({ token, accountId } = await app.accountWithKey(0));
    // The account's own endpoint, where it is told of a switch-off (no worker: deliveries are only recorded).
    await app.database.db.updateTable('accounts').set({ webhook_url: 'https://receiver.example/hooks' }).where('id', '=', accountId).execute();
  });
  afterEach(() => void waits.splice(0));
  afterAll(async () => {
    await app?.close();
    await Promise.all([slack?.close(), discord?.close()]);
  });

  const create = async (kind: 'slack' | 'discord', url: string) => {
    const response = await app.api('POST', '/api/v1/destinations', { token, body: { kind, name: `${kind} channel`, url } });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { id: string; url: string; status: string };
  };
  const test = async (id: string) => app.api('POST', `/api/v1/destinations/${id}/test`, { token, body: {} });
  const deliveries = async (id: string) =>
    ((await (await app.api('GET', `/api/v1/destinations/${id}/deliveries`, { token })).json()) as { data: { subject: string; status: string; receipt: string | null; error: string | null; attempts: { status_code: number | null }[] }[] }).data;
  const drain = (id: string) => app.services.destinations.drain(id);

  it('keeps the webhook URL sealed: answers show its last four characters, the database never the URL', async () => {
    const url = slack.newWebhook();
    const created = await create('slack', url);
    expect(created).toMatchObject({ status: 'active', url: `…/${url.slice(-4)}` });
    const listed = await (await app.api('GET', '/api/v1/destinations', { token })).text();
    expect(listed).not.toContain(url.split('/').pop());
    const row = await app.database.db.selectFrom('destinations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(url.split('/').pop());
  });

  it('refuses a URL that is not a webhook of the named service, in words, and a Slack URL named Discord', async () => {
    for (const [kind, url] of [['slack', 'https://example.com/services/T1/B1/x'], ['discord', slack.newWebhook()]] as const) {
      const response = await app.api('POST', '/api/v1/destinations', { token, body: { kind, name: 'x', url } });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ code: 'destinations.invalid_url', errors: [{ path: '/url' }] });
    }
  });

  it('sends each destination its messages once, in order, at its pace, with Discord message ids as receipts', async () => {
    const hooks = { slack: slack.newWebhook(), discord: discord.newWebhook() };
    const [toSlack, toDiscord] = [await create('slack', hooks.slack), await create('discord', hooks.discord)];
    for (let i = 0; i < 3; i++) for (const { id } of [toSlack, toDiscord]) expect((await test(id)).status).toBe(202);
    await Promise.all([drain(toSlack.id), drain(toDiscord.id)]);
    for (const [fake, { id }] of [[slack, toSlack], [discord, toDiscord]] as const) {
      const sent = (await deliveries(id)).reverse();
      expect(sent.map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
      expect(sent.every((d) => (fake.kind === 'discord' ? d.receipt !== null : d.receipt === null))).toBe(true);
      // Each test message names its subject: the channel got them once each, in the order they were recorded.
      const texts = fake.accepted(hooks[fake.kind]).map((body) => JSON.stringify(body));
      expect(texts).toHaveLength(3);
      sent.forEach((d, i) => expect(texts[i]).toContain(d.subject.replace('test:', '')));
    }
    // The pace: a second between two sends to a Slack webhook, two to a Discord one, waited on the (pinned) clock.
    expect(waits.filter((ms) => ms > 0).every((ms) => ms <= 2000)).toBe(true);
    expect([...slack.early, ...discord.early]).toEqual([]);
  });

  it('waits out a Discord 429 whose retry_after came in milliseconds, and sends nothing before it', async () => {
    const webhook = discord.newWebhook();
    const { id } = await create('discord', webhook);
    discord.retryAfterUnit = 'ms';
    try {
      await test(id);
      await test(id);
      discord.limitNext(webhook, 3);
      await drain(id);
      expect(discord.early).toEqual([]);
      expect((await deliveries(id)).map((d) => d.status)).toEqual(['sent', 'sent']);
      // 3,000 ms waited, not 3,000 s: the figure was read in the unit it came in.
      expect(waits).toContain(3000);
    } finally {
      discord.retryAfterUnit = 's';
    }
  });

  it('waits out a Slack 429 for its Retry-After, and a longer one frees the worker until then', async () => {
    const webhook = slack.newWebhook();
    const { id } = await create('slack', webhook);
    await test(id);
    slack.limitNext(webhook, 60);
    await drain(id);
    const [waiting] = await deliveries(id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: [{ status_code: 429 }] });
    clock.advance(30);
    await drain(id);
    expect(slack.early).toEqual([]);
    expect((await deliveries(id))[0]!.status).toBe('pending');
    clock.advance(30);
    await drain(id);
    expect((await deliveries(id))[0]).toMatchObject({ status: 'sent', attempts: [{ status_code: 429 }, { status_code: 200 }] });
  });

  it('switches a gone destination off after one attempt, fails what it still had, and refuses a test to it', async () => {
    const webhook = slack.newWebhook();
    const { id } = await create('slack', webhook);
    await test(id);
    await test(id);
    slack.remove(webhook);
    await drain(id);
    const [second, first] = await deliveries(id);
    expect(first).toMatchObject({ status: 'failed', attempts: [{ status_code: 404 }] });
    expect(second).toMatchObject({ status: 'failed', attempts: [] });
    expect(await (await app.api('GET', `/api/v1/destinations/${id}`, { token })).json()).toMatchObject({ status: 'off', off_reason: expect.stringContaining('no_service') });
    expect(await (await test(id)).json()).toMatchObject({ code: 'destinations.off' });
    // The owner is told once, on the account's endpoint, however often a drain runs again.
    await drain(id);
    const told = (await app.services.webhooks.recentDeliveries(accountId)).filter((d) => d.event_type === 'destination.off');
    expect(told).toHaveLength(1);
    expect(JSON.parse(told[0]!.payload).data).toMatchObject({ destination_id: id, kind: 'slack', reason: expect.stringContaining('no_service') });
  });

  it("shows a switched-off destination in the health of the monitors routed to it, with its reason", async () => {
    const webhook = slack.newWebhook();
    const { id } = await create('slack', webhook);
    const monitor = (await (await app.api('POST', '/api/v1/monitors', { token, body: { name: 'health', subreddits: ['r/node'], keywords: ['crm'] } })).json()) as { id: string };
    await app.api('PUT', `/api/v1/monitors/${monitor.id}/destinations/${id}`, { token, body: { frequency: 'instant' } });
    const health = async () => ((await (await app.api('GET', `/api/v1/monitors/${monitor.id}`, { token })).json()) as { health: { destinations: unknown[] } }).health.destinations;
    expect(await health()).toEqual([]);
    slack.remove(webhook);
    await test(id);
    await drain(id);
    expect(await health()).toEqual([{ id, name: 'slack channel', kind: 'slack', status: 'off', reason: expect.stringContaining('no_service') }]);
  });

  it("the worker's sweep drains a destination whose wake-up was lost or whose drainer died, once its lease is over", async () => {
    const webhook = slack.newWebhook();
    const { id } = await create('slack', webhook);
    await test(id);
    const until = new Date(clock.now().getTime() + 30_000).toISOString();
    await app.database.db.updateTable('destinations').set({ draining_until: until }).where('id', '=', id).execute();
    await app.services.destinations.recoverStalled();
    await app.services.destinations.settle();
    expect(slack.accepted(webhook)).toHaveLength(0);
    clock.advance(31);
    await app.services.destinations.recoverStalled();
    await app.services.destinations.settle();
    expect(slack.accepted(webhook)).toHaveLength(1);
  });

  it('retries a 5xx after its backoff, and sends it then', async () => {
    const { id } = await create('slack', slack.newWebhook());
    await test(id);
    slack.failNext(503);
    await drain(id);
    expect((await deliveries(id))[0]).toMatchObject({ status: 'pending', attempts: [{ status_code: 503 }] });
    clock.advance(30);
    await drain(id);
    expect((await deliveries(id))[0]).toMatchObject({ status: 'sent', attempts: [{ status_code: 503 }, { status_code: 200 }] });
  });

  it('a slow Discord destination does not delay a Slack one drained beside it', async () => {
    const slowHook = discord.newWebhook();
    const [slow, quick] = [await create('discord', slowHook), await create('slack', slack.newWebhook())];
    await test(slow.id);
    await test(quick.id);
    discord.slow(2000, slowHook);
    const order: string[] = [];
    await Promise.all([drain(slow.id).then(() => order.push('discord')), drain(quick.id).then(() => order.push('slack'))]);
    expect(order).toEqual(['slack', 'discord']);
    expect((await deliveries(quick.id))[0]!.status).toBe('sent');
    // The Discord post timed out (500 ms here) and waits its retry; the Slack one never waited for it.
    expect((await deliveries(slow.id))[0]!.status).toBe('pending');
  });
});

describe.each(engines)('destinations with the worker running, on %s', (engine) => {
  it('a test message sent through the API reaches the Slack channel', async () => {
    const slack = await startFakeSlack();
    const app = await startTestApp(engine, { env: { SECRET_KEY: SECRET_KEY_HEX }, overrides: { chat: { bases: { slack: [slack.url], discord: [] } } } });
    try {
      const { token } = await app.accountWithKey(0);
      const url = slack.newWebhook();
      const created = await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'slack', name: '#leads', url } });
      const { id } = (await created.json()) as { id: string };
      expect((await app.api('POST', `/api/v1/destinations/${id}/test`, { token, body: {} })).status).toBe(202);
      await expect.poll(() => slack.accepted(url).length).toBe(1);
      expect(JSON.stringify(slack.accepted(url)[0])).toContain('a test alert');
    } finally {
      await app.close();
      await slack.close();
    }
  });
});
