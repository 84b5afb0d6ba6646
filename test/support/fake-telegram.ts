/**
 * A fake Telegram Bot API on 127.0.0.1, speaking its wire format (core.telegram.org/bots/api#making-requests):
 *
 * - `GET|POST /bot<token>/<method>`, method names case-insensitive, parameters in the query string, a
 *   JSON body or a form body (objects in a form are JSON-serialized strings); multipart is not taken.
 * - Every answer is JSON, `{"ok":true,"result":…}` or `{"ok":false,"error_code","description"[,"parameters"]}`
 *   with the HTTP status equal to `error_code`. Another token: 401 `{"ok":false,"error_code":401,"description":
 *   "Unauthorized"}` (nickoala/telepot#105); an unknown method: 404 "Not Found" (eternnoir/pyTelegramBotAPI#817).
 * - getMe: the bot, `{id, is_bot: true, first_name, username, …}`.
 * - getUpdates: `offset` confirms every update below it and `timeout` long-polls: the answer comes as soon
 *   as an update is there, or after `timeout` seconds with `[]` (core.telegram.org/bots/api#getupdates). A
 *   second getUpdates while one waits ends the first with 409 "Conflict: terminated by other getUpdates
 *   request; make sure that only one bot instance is running" (eternnoir/pyTelegramBotAPI#543).
 * - sendMessage: answers the Message `{message_id, from, chat: {id, type}, date, text}`; message ids count
 *   up per chat, shared with what people send there. 400 "Bad Request: chat not found" for a chat nobody
 *   wrote from (bottenderjs/messaging-apis#414), "message text is empty", "message is too long" (over 4,096
 *   characters after HTML tags are parsed away).
 * - Pacing as Telegram describes it (core.telegram.org/bots/faq, "My bot is hitting limits": about one
 *   message a second in a chat, 20 a minute in a group, about 30 a second overall; delivery-2026.md): past
 *   it, 429 `{"description":"Too Many Requests: retry after N","parameters":{"retry_after":N}}` with N whole
 *   seconds (flathunters/flathunter#88, tdlib/telegram-bot-api#184) and no Retry-After header (the recorded
 *   answer in hdghg/cjbot#13 has none). Short bursts, which Telegram sometimes allows, are not.
 * - `block(chat, how)`: 403 "Forbidden: bot was blocked by the user", "bot was kicked from the group chat",
 *   "user is deactivated" (tucnak/telebot#659), 400 "chat not found", 400 "group chat was upgraded to a
 *   supergroup chat" with `parameters.migrate_to_chat_id` (TwiN/gatus#179).
 * - `failNext(502)`: `{"ok":false,"error_code":502,"description":"Bad Gateway"}` (tdlib/telegram-bot-api#868).
 * - `userSends(chat, '/start abc')`: the `message` update a person's client sends for a deep link
 *   (core.telegram.org/bots/features#deep-linking), with its `bot_command` entity.
 *
 * A sendMessage that arrives while its chat is told to wait is answered 429 again and kept in `early`: a
 * sender that honours the wait leaves it empty. Time is `now()` (tests pin it); a long poll's timeout runs
 * on the real clock.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ChatType = 'private' | 'group' | 'supergroup' | 'channel';
export type Refusal = 'blocked' | 'kicked' | 'deactivated' | 'deleted' | 'upgraded';

export interface TelegramCall {
  method: string;
  chatId: string | null;
  body: Record<string, unknown>;
  at: number;
  status: number;
}

export interface FakeTelegram {
  /** The Bot API's address, as `baseUrl`. */
  url: string;
  /** The one token it accepts. */
  token: string;
  username: string;
  calls: TelegramCall[];
  early: TelegramCall[];
  /** The bodies of the messages sent to the chat, in order. */
  accepted(chatId: string | number): Record<string, unknown>[];
  /** A person writes in the chat (which then exists): a `message` update. Returns its update_id. */
  userSends(chatId: string | number, text: string, options?: { type?: ChatType; fromName?: string; title?: string }): number;
  block(chatId: string | number, how?: Refusal): void;
  /** The next sendMessage to the chat is a 429 asking to wait this long. */
  limitNext(chatId: string | number, seconds: number): void;
  failNext(status: number, count?: number): void;
  now: () => number;
  close(): Promise<void>;
}

interface ChatState {
  type: ChatType;
  /** A group's or channel's title; a private chat's is its person's first name. */
  title: string;
  nextMessageId: number;
  refusal: Refusal | null;
  waitUntil: number;
  limitNext: number | null;
  sentAt: number[];
}

interface Poll {
  res: ServerResponse;
  offset: number | undefined;
  limit: number;
  timer: NodeJS.Timeout;
}

const TOKEN = '7000000001:AAFakeTelegramTokenForTests_0123456789';
const BOT = { id: 7000000001, is_bot: true, first_name: 'Subpilot Alerts', username: 'subpilot_test_bot', can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false };
const PER_CHAT_MS = 1000;
const PER_GROUP_MINUTE = 20;
const OVERALL_PER_SECOND = 30;
const TEXT_MAX = 4096;
const HTML_ESCAPES: Record<string, string> = { lt: '<', gt: '>', quot: '"', amp: '&' };

export async function startFakeTelegram(options: { now?: () => number } = {}): Promise<FakeTelegram> {
  const chats = new Map<string, ChatState>();
  const failures: number[] = [];
  const updates: Record<string, unknown>[] = [];
  const sentAt: number[] = [];
  let nextUpdateId = 500_000_001;
  let poll: Poll | null = null;

  const send = (res: ServerResponse, status: number, body: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json', server: 'nginx/1.18.0' }).end(JSON.stringify(body));
  const ok = (res: ServerResponse, result: unknown) => send(res, 200, { ok: true, result });
  const refuse = (res: ServerResponse, status: number, description: string, parameters?: Record<string, number>) =>
    send(res, status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });
  const chatOf = (id: string | number) => chats.get(String(id));
  const waitFor = (res: ServerResponse, ms: number) => {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    refuse(res, 429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds });
  };

  const pending = (offset: number | undefined, limit: number) => {
    if (offset !== undefined && offset < 0) updates.splice(0, Math.max(0, updates.length + offset));
    else if (offset !== undefined) while (updates.length && (updates[0]!.update_id as number) < offset) updates.shift();
    return updates.slice(0, limit);
  };
  const answerPoll = () => {
    if (!poll) return;
    const { res, offset, limit, timer } = poll;
    poll = null;
    clearTimeout(timer);
    ok(res, pending(offset, limit));
  };

  function getUpdates(res: ServerResponse, params: Record<string, unknown>) {
    const offset = params.offset === undefined ? undefined : Number(params.offset);
    const limit = Math.min(100, Math.max(1, Number(params.limit ?? 100) || 100));
    const timeout = Math.max(0, Number(params.timeout ?? 0) || 0);
    if (poll) {
      const earlier = poll;
      poll = null;
      clearTimeout(earlier.timer);
      refuse(earlier.res, 409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
    }
    const ready = pending(offset, limit);
    if (ready.length || timeout === 0) return ok(res, ready);
    const timer = setTimeout(answerPoll, timeout * 1000);
    poll = { res, offset, limit, timer };
    // The client gave up (its own timeout): nobody to answer.
    res.on('close', () => {
      if (poll?.res === res) (clearTimeout(poll.timer), (poll = null));
    });
  }

  function sendMessage(res: ServerResponse, params: Record<string, unknown>, record: (status: number) => TelegramCall) {
    const at = fake.now();
    if (params.chat_id === undefined || params.chat_id === '') return (record(400), refuse(res, 400, 'Bad Request: chat_id is empty'));
    const chat = chatOf(params.chat_id as string | number);
    if (!chat || chat.refusal === 'deleted') return (record(400), refuse(res, 400, 'Bad Request: chat not found'));
    if (chat.refusal === 'upgraded') {
      record(400);
      return refuse(res, 400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: Number(`-100${Math.abs(Number(params.chat_id))}`) });
    }
    if (chat.refusal) {
      record(403);
      const words = { blocked: 'bot was blocked by the user', kicked: `bot was kicked from the ${chat.type === 'private' ? 'group' : chat.type} chat`, deactivated: 'user is deactivated' };
      return refuse(res, 403, `Forbidden: ${words[chat.refusal]}`);
    }
    if (at < chat.waitUntil) return (fake.early.push(record(429)), waitFor(res, chat.waitUntil - at));
    if (chat.limitNext !== null) {
      chat.waitUntil = at + chat.limitNext * 1000;
      chat.limitNext = null;
      return (record(429), waitFor(res, chat.waitUntil - at));
    }
    const last = chat.sentAt.at(-1);
    const lastMinute = chat.sentAt.filter((t) => t > at - 60_000);
    const lastSecond = sentAt.filter((t) => t > at - 1000);
    if (last !== undefined && at - last < PER_CHAT_MS) chat.waitUntil = last + PER_CHAT_MS;
    else if (chat.type !== 'private' && lastMinute.length >= PER_GROUP_MINUTE) chat.waitUntil = lastMinute.at(-PER_GROUP_MINUTE)! + 60_000;
    else if (lastSecond.length >= OVERALL_PER_SECOND) chat.waitUntil = lastSecond.at(-OVERALL_PER_SECOND)! + 1000;
    if (at < chat.waitUntil) return (record(429), waitFor(res, chat.waitUntil - at));
    const text = typeof params.text === 'string' ? params.text : '';
    // What the chat shows: HTML's tags become entities and its four escapes characters (core.telegram.org/bots/api#html-style).
    const shown = params.parse_mode === 'HTML' ? text.replace(/<[^>]*>/g, '').replace(/&(lt|gt|quot|amp);/g, (_, name: string) => HTML_ESCAPES[name]!) : text;
    if (!shown.trim()) return (record(400), refuse(res, 400, 'Bad Request: message text is empty'));
    if ([...shown].length > TEXT_MAX) return (record(400), refuse(res, 400, 'Bad Request: message is too long'));
    record(200);
    chat.sentAt.push(at);
    sentAt.push(at);
    const id = Number(params.chat_id);
    ok(res, { message_id: chat.nextMessageId++, from: BOT, chat: chatObject(id, chat), date: Math.floor(at / 1000), text: shown });
  }

  const server = createServer((req, res) => {
    void readParams(req).then((params) => {
      const at = fake.now();
      const route = /^\/bot([^/]*)\/([A-Za-z]+)$/.exec((req.url ?? '').split('?')[0]!);
      const method = route?.[2]?.toLowerCase() ?? '';
      const chatId = params.chat_id === undefined ? null : String(params.chat_id);
      const record = (status: number) => {
        const call = { method: route?.[2] ?? req.url ?? '', chatId, body: params, at, status };
        fake.calls.push(call);
        return call;
      };
      const failure = failures.shift();
      if (failure) return (record(failure), refuse(res, failure, STATUS_CODES[failure] ?? 'Error'));
      if (!route) return (record(404), refuse(res, 404, 'Not Found'));
      if (route[1] !== TOKEN) return (record(401), refuse(res, 401, 'Unauthorized'));
      if (method === 'getme') return (record(200), ok(res, BOT));
      if (method === 'getupdates') return (record(200), getUpdates(res, params));
      if (method === 'sendmessage') return sendMessage(res, params, record);
      return (record(404), refuse(res, 404, 'Not Found'));
    }, () => res.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const fake: FakeTelegram = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: TOKEN,
    username: BOT.username,
    calls: [],
    early: [],
    now: options.now ?? (() => Date.now()),
    accepted: (chatId) => fake.calls.filter((c) => c.method.toLowerCase() === 'sendmessage' && c.chatId === String(chatId) && c.status === 200).map((c) => c.body),
    userSends(chatId, text, { type, fromName = 'Ada', title } = {}) {
      const id = Number(chatId);
      let chat = chatOf(id);
      if (!chat) {
        const kind = type ?? (id < 0 ? 'group' : 'private');
        chat = { type: kind, title: title ?? (kind === 'private' ? fromName : 'Alerts'), nextMessageId: 1, refusal: null, waitUntil: 0, limitNext: null, sentAt: [] };
        chats.set(String(id), chat);
      }
      const command = /^\/\w+(@\w+)?/.exec(text)?.[0];
      const from = { id: chat.type === 'private' ? id : 800_000_000 + updates.length, is_bot: false, first_name: fromName, language_code: 'en' };
      const message = {
        message_id: chat.nextMessageId++,
        from,
        chat: chatObject(id, chat),
        date: Math.floor(fake.now() / 1000),
        text,
        ...(command ? { entities: [{ offset: 0, length: command.length, type: 'bot_command' }] } : {}),
      };
      const update = { update_id: nextUpdateId++, message };
      updates.push(update);
      answerPoll();
      return update.update_id;
    },
    block: (chatId, how = 'blocked') => void (chatOf(chatId)!.refusal = how),
    limitNext: (chatId, seconds) => void (chatOf(chatId)!.limitNext = seconds),
    failNext: (status, count = 1) => void failures.push(...Array.from({ length: count }, () => status)),
    close() {
      if (poll) (clearTimeout(poll.timer), ok(poll.res, []), (poll = null));
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

function chatObject(id: number, { type, title }: ChatState) {
  return type === 'private' ? { id, first_name: title, type } : { id, title, type };
}

/** The query string, then a JSON or form body over it, as Telegram takes them. */
async function readParams(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const params: Record<string, unknown> = Object.fromEntries(new URL(req.url ?? '/', 'http://fake').searchParams);
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) {
    try {
      const body: unknown = JSON.parse(text);
      if (body && typeof body === 'object') Object.assign(params, body);
    } catch {
      // Telegram answers such a body as if it had no parameters.
    }
  } else if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(text)) params[key] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return params;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
