import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { startFakeDiscord, startFakeSlack, type FakeChat } from '../support/fake-chat-webhooks.ts';
import { matchStore } from '../support/matches.ts';
import { pinnedClock } from '../support/monitors.ts';
import { SECRET_KEY_HEX } from '../support/publishing.ts';

/*
 * A monitor's matches routed to destinations: stored as the poller stores them, turned into outbox
 * messages by the worker's pass (`alerts.sendDue`) and drained as the worker drains them, with a pinned
 * clock whose waits move it. What the fake Slack and Discord accepted is what a channel shows.
 */
describe.each(engines)('routing monitor matches to destinations on %s', (engine) => {
  let app: TestApp;
  let slack: FakeChat;
  let discord: FakeChat;
  let token: string;
  let accountId: string;
  let store: ReturnType<typeof matchStore>;
  const clock = pinnedClock('2026-03-28T07:30:00.000Z');

  beforeAll(async () => {
    [slack, discord] = await Promise.all([startFakeSlack(), startFakeDiscord()]);
    slack.now = discord.now = () => clock.now().getTime();
    app = await startTestApp(engine, {
      worker: false,
      env: { SECRET_KEY: SECRET_KEY_HEX, PUBLIC_URL: 'https://app.subpilot.test' },
      overrides: { clock: clock.now, sleep: async (ms) => clock.advance(ms / 1000), chat: { bases: { slack: [slack.url], discord: [discord.url] }, timeoutMs: 500 } },
    });
    ({ token, accountId } = await app.accountWithKey(0));
    store = matchStore(app.services.db);
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([slack?.close(), discord?.close()]);
  });

  const monitor = async () => {
    const response = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'CRM <questions>', subreddits: ['r/node'], keywords: ['crm'] } });
    return ((await response.json()) as { id: string }).id;
  };
  const destination = async (kind: 'slack' | 'discord') => {
    const url = (kind === 'slack' ? slack : discord).newWebhook();
    const response = await app.api('POST', '/api/v1/destinations', { token, body: { kind, name: kind, url } });
    return { id: ((await response.json()) as { id: string }).id, url };
  };
  const route = (monitorId: string, destinationId: string, body: object) => app.api('PUT', `/api/v1/monitors/${monitorId}/destinations/${destinationId}`, { token, body });
  /** One pass of the worker: new matches into the outbox, then every destination drained. */
  const pass = async (...destinations: string[]) => {
    await app.services.alerts.sendDue();
    for (const id of destinations) await app.services.destinations.drain(id);
  };
  const texts = (fake: FakeChat, url: string) => fake.accepted(url).map((body) => (body as { text?: string; content?: string }).text ?? (body as { content: string }).content);

  it('sends each new match once, in storage order, to Slack and Discord, and none found before the route existed', async () => {
    const monitorId = await monitor();
    await store(monitorId, accountId, 1);
    const [toSlack, toDiscord] = [await destination('slack'), await destination('discord')];
    for (const to of [toSlack, toDiscord]) expect((await route(monitorId, to.id, { frequency: 'instant' })).status).toBe(200);
    const ids = await store(monitorId, accountId, 3);
    await pass(toSlack.id, toDiscord.id);
    await pass(toSlack.id, toDiscord.id);
    for (const [fake, to] of [[slack, toSlack], [discord, toDiscord]] as const) {
      const sent = texts(fake, to.url);
      expect(sent).toHaveLength(3);
      ids.forEach((id, i) => expect(sent[i]).toContain(id));
    }
    const [first] = slack.accepted(toSlack.url) as { text: string }[];
    // Slack's mrkdwn: the monitor's name escaped, links as <url|label>, the match in the Inbox.
    expect(first!.text).toContain('monitor "CRM &lt;questions&gt;"');
    expect(first!.text).toContain(`<https://app.subpilot.test/dashboard/inbox?monitor=${monitorId}#${ids[0]}|Open in the Inbox>`);
    // Discord pings nobody, whatever the post says.
    expect(discord.accepted(toDiscord.url)[0]).toMatchObject({ allowed_mentions: { parse: [] } });
  });

  it('never sends a filtered match, and sends the relevance and its reason of a judged one', async () => {
    const monitorId = await monitor();
    const to = await destination('slack');
    await route(monitorId, to.id, { frequency: 'instant' });
    const [kept, filtered] = await store(monitorId, accountId, 2);
    await app.services.db.updateTable('monitor_matches').set({ relevance: 91, relevance_reason: 'Asks for a CRM' }).where('id', '=', kept!).execute();
    await app.services.db.updateTable('monitor_matches').set({ relevance: 10, relevance_reason: 'Off topic', filtered: 1 }).where('id', '=', filtered!).execute();
    await pass(to.id);
    const sent = texts(slack, to.url);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('Relevance 91/100: Asks for a CRM');
  });

  it('a daily digest at 09:00 Europe/Berlin goes out at 09:00 local on both sides of the spring change, and an empty day sends nothing', async () => {
    const monitorId = await monitor();
    const to = await destination('discord');
    const created = await route(monitorId, to.id, { frequency: 'daily', at: '09:00', time_zone: 'Europe/Berlin' });
    // 07:30 UTC on 28 March is 08:30 in Berlin (UTC+1): the first digest is at 08:00 UTC.
    expect(await created.json()).toMatchObject({ frequency: 'daily', next_digest_at: '2026-03-28T08:00:00.000Z' });
    await store(monitorId, accountId, 2);
    await pass(to.id);
    expect(texts(discord, to.url)).toHaveLength(0);
    clock.set('2026-03-28T08:00:00.000Z');
    await pass(to.id);
    // Discord's markdown marks in the name are escaped: it shows "CRM <questions>".
    expect(texts(discord, to.url)).toEqual([expect.stringContaining('2 new matches for monitor "CRM <questions\\>" (the day to 09:00 Europe/Berlin)')]);
    // Nothing new on the 29th: nothing is sent. After the change Berlin is UTC+2: 09:00 is 07:00 UTC.
    clock.set('2026-03-29T07:00:00.000Z');
    await pass(to.id);
    expect(texts(discord, to.url)).toHaveLength(1);
    const [shown] = ((await (await app.api('GET', `/api/v1/monitors/${monitorId}/destinations`, { token })).json()) as { data: { next_digest_at: string }[] }).data;
    expect(shown!.next_digest_at).toBe('2026-03-30T07:00:00.000Z');
    await store(monitorId, accountId, 1);
    clock.set('2026-03-30T07:00:00.000Z');
    await pass(to.id);
    expect(texts(discord, to.url)).toHaveLength(2);
    expect(texts(discord, to.url)[1]).toContain('1 new match for monitor');
  });

  it("a digest of 25 long matches fits Discord's 2,000 characters, as many whole matches as fit and the count of the rest", async () => {
    const monitorId = await monitor();
    const to = await destination('discord');
    await route(monitorId, to.id, { frequency: 'hourly' });
    const ids = await store(monitorId, accountId, 25);
    await app.services.db.updateTable('monitor_matches').set({ body: 'A long question about CRMs. '.repeat(200) }).where('id', 'in', ids).execute();
    clock.advance(3600);
    await pass(to.id);
    const [digest] = texts(discord, to.url);
    expect(digest!.length).toBeLessThanOrEqual(2000);
    expect(digest).toContain('25 new matches');
    expect(digest).toMatch(/…and \d+ more in the Inbox$/);
    expect(discord.posts.filter((p) => p.status === 400)).toEqual([]);
  });

  it('a pass that runs twice, or dies after recording, records each message once', async () => {
    const monitorId = await monitor();
    const to = await destination('slack');
    await route(monitorId, to.id, { frequency: 'instant' });
    await store(monitorId, accountId, 2);
    // Two passes at once (two workers), then one more: the outbox keeps one message per match.
    await Promise.all([app.services.alerts.sendDue(), app.services.alerts.sendDue()]);
    await app.services.db.updateTable('monitor_routes').set({ cursor_seq: 0 }).where('destination_id', '=', to.id).execute();
    await app.services.alerts.sendDue();
    await app.services.destinations.drain(to.id);
    expect(texts(slack, to.url)).toHaveLength(2);
  });

  it('refuses a time for a route that is not daily, an unknown time zone, and names what is missing', async () => {
    const monitorId = await monitor();
    const to = await destination('slack');
    const refusals = [
      [{ frequency: 'hourly', at: '09:00' }, 422, 'destinations.invalid_schedule'],
      [{ frequency: 'daily', time_zone: 'Mars/Olympus_Mons' }, 422, 'destinations.invalid_time_zone'],
      [{ frequency: 'weekly' }, 422, 'request.invalid'],
    ] as const;
    for (const [body, status, code] of refusals) {
      const response = await route(monitorId, to.id, body);
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ code });
    }
    expect((await route(monitorId, `dst_${'0'.repeat(28)}`, { frequency: 'instant' })).status).toBe(404);
    expect((await route(`mon_${'0'.repeat(28)}`, to.id, { frequency: 'instant' })).status).toBe(404);
    const removed = await app.api('DELETE', `/api/v1/monitors/${monitorId}/destinations/${to.id}`, { token });
    expect(removed.status).toBe(404);
  });
});
