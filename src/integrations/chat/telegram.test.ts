import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram, type Refusal } from '../../../test/support/fake-telegram.ts';
import type { ChatOutcome } from './chat.types.ts';
import { createTelegramBot, startPayload, TelegramError, telegramRetryAfterMs, type TelegramBot, type TelegramBotOptions } from './telegram.ts';

let telegram: FakeTelegram;
/** The fake's clock: pinned, moved by hand, so no test waits for a rate limit to pass. */
let clock: number;
/** Every request this client made, as fetch saw it. */
let requests: { url: string; init: RequestInit }[];
/** Every outcome, error and thrown message of the test, as text: none may contain the token. */
let seen: string[];

beforeEach(async () => {
  clock = Date.UTC(2026, 0, 15, 9, 0, 0);
  telegram = await startFakeTelegram({ now: () => clock });
  requests = [];
  seen = [];
});
afterEach(async () => {
  await telegram.close();
  const secrets = [telegram.token, telegram.token.split(':')[1]!, BAD_TOKEN, BAD_TOKEN.split(':')[1]!];
  for (const text of seen) for (const secret of secrets) expect(text).not.toContain(secret);
});

const BAD_TOKEN = '7000000001:AAWrongTokenNobodyIssued_9876543210';
const CHAT = '424242';
const GROUP = '-4518810793';
const MESSAGE = { text: '<b>New match</b> in r/typescript', parse_mode: 'HTML', link_preview_options: { is_disabled: true } };

const recordingFetch: typeof fetch = (input, init) => {
  requests.push({ url: String(input), init: init ?? {} });
  return fetch(input, init);
};

/** Answers what it is told, for the answers the fake does not give. */
const answering = (status: number, body: string, headers: Record<string, string> = {}): typeof fetch =>
  async (input, init) => {
    requests.push({ url: String(input), init: init ?? {} });
    return new Response(body, { status, headers });
  };

function bot(overrides: Partial<TelegramBotOptions> = {}): TelegramBot {
  return createTelegramBot({ baseUrl: telegram.url, token: telegram.token, timeoutMs: 5000, maxRetryAfterMs: 600_000, fetch: recordingFetch, ...overrides });
}

async function send(chatId: string, message: unknown = MESSAGE, overrides: Partial<TelegramBotOptions> = {}): Promise<ChatOutcome> {
  const outcome = await bot(overrides).sendMessage(chatId, message);
  seen.push(JSON.stringify(outcome));
  return outcome;
}

/** What a call threw; its message, stack and fields are kept for the token check. */
async function thrown(promise: Promise<unknown>): Promise<TelegramError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(TelegramError);
  seen.push(String((error as Error).stack), JSON.stringify(error));
  return error as TelegramError;
}

describe('sending a message', () => {
  it('posts the message as JSON to sendMessage and keeps the message_id as the receipt', async () => {
    telegram.userSends(CHAT, '/start abc');
    const outcome = await send(CHAT);
    // The person's /start was message 1 of the chat.
    expect(outcome).toMatchObject({ outcome: 'sent', status: 200, messageId: '2' });
    expect(JSON.parse(outcome.answer)).toMatchObject({ ok: true, result: { message_id: 2, chat: { id: 424242, type: 'private' }, text: 'New match in r/typescript' } });
    expect(telegram.accepted(CHAT)).toEqual([{ chat_id: 424242, ...MESSAGE }]);
    const [request] = requests;
    expect(request!.url).toBe(`${telegram.url}/bot${telegram.token}/sendMessage`);
    expect(request!.init).toMatchObject({ method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json', 'user-agent': 'subpilot-alerts/1' } });
    expect(request!.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('sends to the destination chat even when the message names another', async () => {
    telegram.userSends(CHAT, '/start abc');
    expect(await send(CHAT, { ...MESSAGE, chat_id: 1 })).toMatchObject({ outcome: 'sent' });
    expect(telegram.accepted(CHAT)).toHaveLength(1);
  });

  it('calls a 5xx a failure worth retrying, and sends the next time', async () => {
    telegram.userSends(CHAT, '/start abc');
    telegram.failNext(502);
    expect(await send(CHAT)).toEqual({
      outcome: 'failed', status: 502, answer: '{"ok":false,"error_code":502,"description":"Bad Gateway"}', retryable: true, error: 'Telegram answered 502: Bad Gateway',
    });
    expect(await send(CHAT)).toMatchObject({ outcome: 'sent' });
  });

  it('calls an empty text a failure not worth retrying, in Telegram\'s words', async () => {
    telegram.userSends(CHAT, '/start abc');
    expect(await send(CHAT, { text: ' ' })).toMatchObject({ outcome: 'failed', status: 400, retryable: false, error: 'Telegram refused the message: 400: Bad Request: message text is empty' });
  });

  it('calls a refused connection and a silent server failures worth retrying, without the address', async () => {
    const closed = await startFakeTelegram();
    await closed.close();
    expect(await send(CHAT, MESSAGE, { baseUrl: closed.url })).toEqual({ outcome: 'failed', status: null, answer: '', retryable: true, error: 'could not connect to Telegram (ECONNREFUSED)' });
    const silent: typeof fetch = (_, init) => new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
    expect(await send(CHAT, MESSAGE, { fetch: silent, timeoutMs: 50 })).toMatchObject({ outcome: 'failed', status: null, retryable: true, error: 'Telegram did not answer sendMessage within 0.05 s' });
  });

  it('clips a long answer to 500 characters', async () => {
    expect((await send(CHAT, MESSAGE, { fetch: answering(500, 'x'.repeat(2000)) })).answer).toHaveLength(500);
  });
});

describe('a rate limit', () => {
  it('gives the stated wait of a second message within a second, and takes it once the wait is over', async () => {
    telegram.userSends(CHAT, '/start abc');
    expect(await send(CHAT)).toMatchObject({ outcome: 'sent' });
    const limited = await send(CHAT);
    expect(limited).toMatchObject({ outcome: 'rate_limited', status: 429, retryAfterMs: 1000 });
    expect(JSON.parse(limited.answer)).toEqual({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } });
    clock += 1000;
    expect(await send(CHAT)).toMatchObject({ outcome: 'sent' });
    expect(telegram.early).toEqual([]);
  });

  it('allows 20 messages a minute to a group, then asks to wait for the oldest to leave the minute', async () => {
    telegram.userSends(GROUP, '/start@subpilot_test_bot abc');
    for (let i = 0; i < 20; i += 1, clock += 1000) expect(await send(GROUP)).toMatchObject({ outcome: 'sent' });
    expect(await send(GROUP)).toMatchObject({ outcome: 'rate_limited', retryAfterMs: 40_000 });
  });

  it('answers a message sent before the wait is over with 429 again, and the fake keeps it as early', async () => {
    telegram.userSends(CHAT, '/start abc');
    telegram.limitNext(CHAT, 30);
    expect(await send(CHAT)).toMatchObject({ outcome: 'rate_limited', retryAfterMs: 30_000 });
    clock += 10_000;
    expect(await send(CHAT)).toMatchObject({ outcome: 'rate_limited', retryAfterMs: 20_000 });
    expect(telegram.early).toHaveLength(1);
  });

  it('cuts a stated wait longer than the cap to the cap', async () => {
    telegram.userSends(CHAT, '/start abc');
    telegram.limitNext(CHAT, 3600);
    expect(await send(CHAT, MESSAGE, { maxRetryAfterMs: 60_000 })).toMatchObject({ outcome: 'rate_limited', retryAfterMs: 60_000 });
  });

  const cases: [string, unknown, string | null, string, number][] = [
    ['parameters.retry_after', 34, null, 'Too Many Requests: retry after 34', 34_000],
    ['a Retry-After header without parameters', undefined, '5', 'Too Many Requests', 5000],
    ['the description of an answer without parameters (hdghg/cjbot#13)', undefined, null, 'Too Many Requests: retry after 3', 3000],
    ['nothing', undefined, null, 'Too Many Requests', 1000],
  ];
  it.each(cases)('reads the wait from %s', (_, retryAfter, header, description, expected) => {
    expect(telegramRetryAfterMs(retryAfter, header, description)).toBe(expected);
  });
});

describe('a chat that cannot receive', () => {
  const cases: [Refusal, number, RegExp][] = [
    ['blocked', 403, /^Telegram says the person blocked the bot \(bot was blocked by the user\)$/],
    ['kicked', 403, /removed from the group \(bot was kicked from the group chat\)/],
    ['deactivated', 403, /account was deleted \(user is deactivated\)/],
    ['deleted', 400, /chat does not exist or the bot cannot see it \(chat not found\)/],
    ['upgraded', 400, /group became a supergroup, which has a new chat id: link the group again/],
  ];
  it.each(cases)('is gone when %s, with words a person understands', async (how, status, reason) => {
    telegram.userSends(GROUP, '/start abc');
    telegram.block(GROUP, how);
    const outcome = await send(GROUP);
    expect(outcome).toMatchObject({ outcome: 'gone', status });
    expect(outcome.outcome === 'gone' && outcome.reason).toMatch(reason);
  });

  it('is gone when nobody ever wrote to the bot from it (chat not found)', async () => {
    expect(await send('99')).toMatchObject({ outcome: 'gone', status: 400 });
  });
});

describe('the token', () => {
  it('is in no outcome when a proxy echoes the address, whole or URL-encoded', async () => {
    const page = `<html>502 Bad Gateway: ${telegram.url}/bot${telegram.token}/sendMessage (${encodeURIComponent(telegram.token)})</html>`;
    const outcome = await send(CHAT, MESSAGE, { fetch: answering(502, page) });
    expect(outcome).toMatchObject({ outcome: 'failed', status: 502, retryable: true });
    expect(outcome.answer).toContain('502 Bad Gateway');
  });

  it("is in no outcome when fetch's own error quotes the address", async () => {
    const leaky: typeof fetch = async (input) => {
      throw new TypeError(`fetch failed: ${String(input)}`, { cause: Object.assign(new Error(`connect ${String(input)}`), { code: 'ECONNRESET' }) });
    };
    expect(await send(CHAT, MESSAGE, { fetch: leaky })).toMatchObject({ outcome: 'failed', error: 'could not connect to Telegram (ECONNRESET)' });
  });

  it('is refused at creation when it does not look like a token, without quoting it', async () => {
    const error = await thrown((async () => bot({ token: `${BAD_TOKEN}/../x` }))());
    expect(error.message).toBe('the Telegram bot token does not look like one (digits, a colon, then letters, digits, _ and -)');
  });

  it("is not in a bad token's getMe error or sendMessage outcome", async () => {
    const error = await thrown(bot({ token: BAD_TOKEN }).getMe());
    expect(error).toMatchObject({ status: 401, retryAfterMs: null, message: expect.stringMatching(/401 Unauthorized/) });
    expect(await send(CHAT, MESSAGE, { token: BAD_TOKEN })).toMatchObject({ outcome: 'failed', status: 401, retryable: false });
  });
});

describe('linking a chat', () => {
  it("reads the bot's username with getMe", async () => {
    expect(await bot().getMe()).toEqual({ username: 'subpilot_test_bot' });
  });

  const payloads: [string | null, string | null][] = [
    ['/start abc', 'abc'],
    ['/start 0123abcdef_-XYZ', '0123abcdef_-XYZ'],
    ['/start@subpilot_test_bot abc', 'abc'],
    ['  /start   abc  ', 'abc'],
    [`/start ${'a'.repeat(64)}`, 'a'.repeat(64)],
    [`/start ${'a'.repeat(65)}`, null],
    ['/start', null],
    ['/start abc def', null],
    ['/start a.b', null],
    ['/starting abc', null],
    ['hello /start abc', null],
    [null, null],
  ];
  it.each(payloads)('reads the payload of %j as %j', (text, payload) => {
    expect(startPayload(text)).toBe(payload);
  });

  it("leaves a /start addressed to another bot alone once it knows its own name", async () => {
    const linked = bot();
    await linked.getMe();
    expect(linked.startPayload('/start@SUBPILOT_test_bot abc')).toBe('abc');
    expect(linked.startPayload('/start@other_bot abc')).toBeNull();
  });

  it('returns each update once when the offset moves past it', async () => {
    const reader = bot();
    const first = telegram.userSends(CHAT, '/start abc', { fromName: 'Ada' });
    telegram.userSends(GROUP, '/start@subpilot_test_bot def', { type: 'supergroup', fromName: 'Grace', title: 'Reddit alerts' });
    const updates = await reader.getUpdates(undefined, 0);
    expect(updates).toEqual([
      { update_id: first, chatId: CHAT, chatType: 'private', chatName: 'Ada', text: '/start abc', fromName: 'Ada' },
      { update_id: first + 1, chatId: GROUP, chatType: 'supergroup', chatName: 'Reddit alerts', text: '/start@subpilot_test_bot def', fromName: 'Grace' },
    ]);
    const offset = updates.at(-1)!.update_id + 1;
    expect(await reader.getUpdates(offset, 0)).toEqual([]);
    const third = telegram.userSends(CHAT, 'hello');
    // Confirmed updates are gone even for a reader that forgot its offset.
    expect((await reader.getUpdates(undefined, 0)).map((u) => u.update_id)).toEqual([third]);
    expect(JSON.parse(String(requests.at(-1)!.init.body))).toEqual({ timeout: 0, allowed_updates: ['message'] });
  });

  it('answers a long poll as soon as a person writes', async () => {
    const polling = bot().getUpdates(undefined, 20);
    await expect.poll(() => telegram.calls.length).toBe(1);
    telegram.userSends(CHAT, '/start abc');
    expect((await polling).map((u) => u.text)).toEqual(['/start abc']);
  });

  it('says in words that another reader took the updates (409 Conflict)', async () => {
    const first = thrown(bot().getUpdates(undefined, 20));
    await expect.poll(() => telegram.calls.length).toBe(1);
    expect(await bot().getUpdates(undefined, 0)).toEqual([]);
    expect(await first).toMatchObject({ status: 409, message: expect.stringMatching(/another process reads this bot's updates/) });
  });

  it('gives the capped wait of a 429 on getUpdates', async () => {
    const answer = JSON.stringify({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 7200', parameters: { retry_after: 7200 } });
    const error = await thrown(bot({ fetch: answering(429, answer), maxRetryAfterMs: 60_000 }).getUpdates(5, 0));
    expect(error).toMatchObject({ status: 429, retryAfterMs: 60_000 });
  });

  it('returns an update that is not a message with its chat and no text', async () => {
    const edited = { update_id: 9, edited_message: { message_id: 3, chat: { id: 5, type: 'private', username: 'ada' }, date: 1, text: '/start abc' } };
    const updates = await bot({ fetch: answering(200, JSON.stringify({ ok: true, result: [edited] })) }).getUpdates(undefined, 0);
    expect(updates).toEqual([{ update_id: 9, chatId: '5', chatType: 'private', chatName: '@ada', text: null, fromName: null }]);
  });
});
