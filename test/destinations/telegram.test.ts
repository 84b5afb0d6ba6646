import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.ts';
import { matchStore } from '../support/matches.ts';
import { pinnedClock } from '../support/monitors.ts';
import { SECRET_KEY_HEX } from '../support/publishing.ts';

/*
 * Telegram destinations against the fake Bot API: a chat is linked by the deep link's code, as a
 * person pressing Start sends it, read by the bot's long poll (`pollOnce(0)`: no waiting); alerts are
 * drained as the worker drains them, on a pinned clock that the fake follows.
 */
describe.each(engines)('Telegram destinations on %s', (engine) => {
  let app: TestApp;
  let telegram: FakeTelegram;
  let token: string;
  let accountId: string;
  let chats = 1000;
  const clock = pinnedClock('2026-03-28T07:30:00.000Z');

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    telegram.now = () => clock.now().getTime();
    app = await startTestApp(engine, {
      worker: false,
      env: { SECRET_KEY: SECRET_KEY_HEX, PUBLIC_URL: 'https://app.subpilot.test', TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_URL: telegram.url },
      overrides: { clock: clock.now, sleep: async (ms) => clock.advance(ms / 1000) },
    });
    ({ token, accountId } = await app.accountWithKey(0));
    await app.database.db.updateTable('accounts').set({ webhook_url: 'https://receiver.example/hooks' }).where('id', '=', accountId).execute();
  });
  afterAll(async () => {
    await app?.close();
    await telegram?.close();
  });

  const linking = () => app.services.telegramLinking!;
  const create = async () => {
    const response = await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'telegram', name: 'Team chat' } });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { id: string; status: string; link: string; chat: string | null };
  };
  /** A person opens the link in a new chat and presses Start; the bot reads it; the chat is told it is linked. */
  const linked = async (type: 'private' | 'group' = 'private') => {
    const created = await create();
    const chat = String(type === 'group' ? -++chats : ++chats);
    telegram.userSends(chat, `/start ${new URL(created.link).searchParams.get('start')}`, { type, title: 'Growth team' });
    expect(await linking().pollOnce(0)).toBe(1);
    await app.services.destinations.drain(created.id);
    return { id: created.id, chat };
  };
  const read = async (id: string) => (await (await app.api('GET', `/api/v1/destinations/${id}`, { token })).json()) as { status: string; chat: string | null; link: string | null; off_reason: string | null };

  it("answers a t.me link with the bot's name and a code; the chat that presses Start becomes the destination and is told so", async () => {
    const created = await create();
    expect(created).toMatchObject({ status: 'unconfirmed', chat: null, link: expect.stringMatching(new RegExp(`^https://t\\.me/${telegram.username}\\?start=[A-Za-z0-9_-]{50}$`)) });
    expect((await app.api('POST', `/api/v1/destinations/${created.id}/test`, { token, body: {} })).status).toBe(409);
    telegram.userSends('4242', `/start ${new URL(created.link).searchParams.get('start')}`, { title: 'Jane' });
    await linking().pollOnce(0);
    expect(await read(created.id)).toMatchObject({ status: 'active', chat: 'Jane', link: null });
    await app.services.destinations.drain(created.id);
    expect(telegram.accepted('4242').map((m) => m.text)).toEqual([expect.stringMatching(/^Linked: subpilot alerts for "Team chat"/)]);
  });

  it('the same Start read again (by a worker that restarted) changes nothing and says nothing more in the chat', async () => {
    const created = await create();
    const code = new URL(created.link).searchParams.get('start')!;
    telegram.userSends('5151', `/start ${code}`);
    await linking().pollOnce(0);
    await app.services.destinations.drain(created.id);
    expect(await app.services.destinations.linkChat(code, { id: '5151', name: 'Jane' })).toBe('linked');
    await app.services.destinations.drain(created.id);
    expect(telegram.accepted('5151')).toHaveLength(1);
    expect(await app.services.destinations.linkChat(code, { id: '6161', name: 'Someone else' })).toBe('already');
  });

  it('a code that links nothing gets an answer in words, and a used code does not move the destination to another chat', async () => {
    const { id, chat } = await linked();
    const code = (await create()).link.split('start=')[1]!;
    // One character changed (to one it is not: a code ends in `x` one time in 64).
    const wrong = `${code.slice(0, -1)}${code.endsWith('x') ? 'y' : 'x'}`;
    telegram.userSends('777', `/start ${wrong}`);
    await linking().pollOnce(0);
    expect(telegram.accepted('777').map((m) => m.text)).toEqual([expect.stringContaining('does not link anything')]);
    const used = await app.database.db.selectFrom('destinations').select('url_hint').where('id', '=', id).executeTakeFirstOrThrow();
    expect(used.url_hint).toBe('Growth team');
    expect(chat).not.toBe('777');
  });

  it('sends a monitor\'s matches as HTML with Reddit\'s text escaped, and honours a 429\'s retry_after', async () => {
    const { id, chat } = await linked('group');
    const monitor = (await (await app.api('POST', '/api/v1/monitors', { token, body: { name: 'CRM <questions>', subreddits: ['r/node'], keywords: ['crm'] } })).json()) as { id: string };
    expect((await app.api('PUT', `/api/v1/monitors/${monitor.id}/destinations/${id}`, { token, body: { frequency: 'instant' } })).status).toBe(200);
    await matchStore(app.services.db)(monitor.id, accountId, 3);
    await app.services.alerts.sendDue();
    telegram.limitNext(chat, 7);
    const before = clock.now().getTime();
    // The 7 s wait is longer than a drainer waits in place: it hands the destination back, and the job
    // queue brings it back after the wait (here: the clock moved by it).
    await app.services.destinations.drain(id);
    expect(telegram.accepted(chat)).toHaveLength(1);
    clock.advance(7);
    await app.services.destinations.drain(id);
    const texts = telegram.accepted(chat).map((m) => m as { text: string; parse_mode?: string });
    expect(texts.slice(1).map((m) => m.parse_mode)).toEqual(['HTML', 'HTML', 'HTML']);
    expect(texts[1]!.text).toContain('monitor "CRM &lt;questions&gt;"');
    expect(texts[1]!.text).toContain('<a href="https://www.reddit.com/r/node/comments/');
    expect(telegram.early).toEqual([]);
    // The group's pace (20 a minute: one every 3 s) and the 7 s wait both held.
    expect(clock.now().getTime() - before).toBeGreaterThanOrEqual(7000 + 2 * 3000);
  });

  it('a chat that blocked the bot is switched off after one attempt, and its owner is told once', async () => {
    const { id, chat } = await linked();
    telegram.block(chat);
    expect((await app.api('POST', `/api/v1/destinations/${id}/test`, { token, body: {} })).status).toBe(202);
    expect((await app.api('POST', `/api/v1/destinations/${id}/test`, { token, body: {} })).status).toBe(202);
    await app.services.destinations.drain(id);
    expect(await read(id)).toMatchObject({ status: 'off', off_reason: expect.stringMatching(/blocked/i) });
    expect(telegram.calls.filter((c) => c.method.toLowerCase() === 'sendmessage' && c.chatId === chat && c.status === 403)).toHaveLength(1);
    const told = (await app.services.webhooks.recentDeliveries(accountId)).filter((d) => d.event_type === 'destination.off' && JSON.stringify(d).includes(id));
    expect(told).toHaveLength(1);
  });

  it('never shows or stores the bot token or the chat id in clear', async () => {
    const { id, chat } = await linked();
    const answers = [await (await app.api('GET', '/api/v1/destinations', { token })).text(), await (await app.api('GET', `/api/v1/destinations/${id}/deliveries`, { token })).text()];
    const row = JSON.stringify(await app.database.db.selectFrom('destinations').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    for (const text of [...answers, row]) expect(text).not.toContain(telegram.token.split(':')[1]);
    expect(row).not.toContain(`"${chat}"`);
  });
});

describe.each(engines)('Telegram destinations without a bot, on %s', (engine) => {
  it('are refused with 503 naming TELEGRAM_BOT_TOKEN', async () => {
    const app = await startTestApp(engine, { worker: false, env: { SECRET_KEY: SECRET_KEY_HEX } });
    try {
      const { token } = await app.accountWithKey(0);
      const response = await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'telegram', name: 'x' } });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'destinations.channel_not_configured', detail: expect.stringContaining('TELEGRAM_BOT_TOKEN') });
    } finally {
      await app.close();
    }
  });
});
