/**
 * The operator's Telegram bot (TELEGRAM_BOT_TOKEN): sends one alert to one chat and classifies the
 * answer like a webhook post (what each answer means, with sources: telegram.bot.ts), and reads what
 * linking a chat needs: its own username (getMe, for the `t.me/<bot>?start=` link) and the messages
 * people send it (getUpdates, long polling).
 * One exchange per call, never repeated here: retries and pacing belong to the outbox (issue 43).
 *
 * Requests are POSTs of JSON to `<baseUrl>/bot<token>/<method>` (core.telegram.org/bots/api#making-
 * requests). The token is a secret and sits in that path: no outcome, reason, answer or thrown message
 * built here repeats it, an answer that echoes it (a proxy's error page) has it cut out, and fetch's own
 * errors, whose text or cause can quote the address, are reduced to their network code. A token that
 * does not look like one (`<digits>:<letters, digits, _ and ->`) is refused at creation, so it can never
 * change the path it is put in.
 *
 * getUpdates returns every update it is given, each with its `update_id`, so that the caller can move
 * its offset past all of them (an update is confirmed by asking with a higher offset, core.telegram.org/
 * bots/api#getupdates); only a `message` has `text` (null otherwise, for `edited_message`,
 * `my_chat_member`…), and `allowed_updates: ["message"]` asks Telegram for little else.
 */
import { clip, isObject, isTimeout, networkCode, parseObject, redact, said, seconds } from './chat.answers.ts';
import { classifyTelegram, startPayload, telegramRetryAfterMs } from './telegram.bot.ts';
import type { ChatOutcome } from './chat.types.ts';

export { classifyTelegram, startPayload, telegramRetryAfterMs } from './telegram.bot.ts';

export interface TelegramBotOptions {
  /** https://api.telegram.org; tests: the fake's address. */
  baseUrl: string;
  token: string;
  timeoutMs: number;
  /** A stated wait longer than this is cut to it. */
  maxRetryAfterMs: number;
  /** Tests only; the global fetch otherwise. */
  fetch?: typeof fetch;
  /**
   * The whole bot's pace: Telegram takes about thirty messages a second from one bot, across all its
   * chats (core.telegram.org/bots/faq), so sends are spaced by `gapMs` in this process. The clock and
   * the wait come in like every other.
   */
  botPace?: { gapMs: number; now: () => number; sleep: (ms: number) => Promise<void> };
}

export interface TelegramUpdate {
  update_id: number;
  /** The chat the update happened in, as a string (ids have up to 52 bits); '' for an update without a chat. */
  chatId: string;
  /** 'private', 'group', 'supergroup', 'channel'; '' without a chat. */
  chatType: string;
  /** What the owner will recognise: a group's or channel's title, a private chat's person; '' when Telegram gives none. */
  chatName: string;
  /** What a person typed, for a `message` only. */
  text: string | null;
  fromName: string | null;
}

export interface TelegramBot {
  sendMessage(chatId: string, message: unknown): Promise<ChatOutcome>;
  getMe(): Promise<{ username: string }>;
  getUpdates(offset: number | undefined, timeoutSeconds: number): Promise<TelegramUpdate[]>;
  /** `startPayload` (telegram.bot.ts), knowing this bot's username once getMe has answered. */
  startPayload(text: string | null): string | null;
}

/** A failed getMe or getUpdates, in words; never with the token. `retryAfterMs` for a 429 (capped). */
export class TelegramError extends Error {
  override name = 'TelegramError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

const USER_AGENT = 'subpilot-alerts/1';
const TOKEN_SHAPE = /^\d{1,20}:[A-Za-z0-9_-]{10,100}$/;

type Exchange = { ok: true; status: number; body: string; answer: string; retryAfter: string | null } | { ok: false; error: string };

export function createTelegramBot(options: TelegramBotOptions): TelegramBot {
  /** When this process's next send to Telegram may start (botPace). */
  let nextTurn = 0;
  async function ownTurn() {
    if (!options.botPace) return;
    const { gapMs, now, sleep } = options.botPace;
    const at = Math.max(now(), nextTurn);
    nextTurn = at + gapMs;
    if (at > now()) await sleep(at - now());
  }
  const { token } = options;
  if (!TOKEN_SHAPE.test(token)) throw new TelegramError('the Telegram bot token does not look like one (digits, a colon, then letters, digits, _ and -)', null);
  const base = options.baseUrl.replace(/\/+$/, '');
  // The token whole, URL-encoded (an echoed address), and its secret half after the colon.
  const secrets = [token, encodeURIComponent(token), token.slice(token.indexOf(':') + 1)].sort((a, b) => b.length - a.length);
  let username: string | null = null;

  async function exchange(method: string, params: Record<string, unknown>, waitMs: number): Promise<Exchange> {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(`${base}/bot${token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
        body: JSON.stringify(params),
        // A redirect would carry the token to a host nobody checked: never followed.
        redirect: 'manual',
        signal: AbortSignal.timeout(waitMs),
      });
    } catch (cause) {
      if (isTimeout(cause)) return { ok: false, error: `Telegram did not answer ${method} within ${seconds(waitMs)}` };
      const code = networkCode(cause);
      return { ok: false, error: `could not connect to Telegram${code ? ` (${code})` : ''}` };
    }
    let body = '';
    try {
      body = redact(await response.text(), secrets);
    } catch {
      // The body timed out or broke off after the status line: the status is what we know.
    }
    return { ok: true, status: response.status, body, answer: clip(body), retryAfter: response.headers.get('retry-after') };
  }

  const cap = (ms: number) => Math.max(0, Math.min(ms, options.maxRetryAfterMs));

  /** The `result` of a read, or a TelegramError that says why not. */
  async function read(method: string, params: Record<string, unknown>, waitMs: number): Promise<unknown> {
    const answer = await exchange(method, params, waitMs);
    if (!answer.ok) throw new TelegramError(answer.error, null);
    const { status, body, retryAfter } = answer;
    const json = parseObject(body);
    const description = typeof json.description === 'string' ? json.description.slice(0, 200) : '';
    if (status >= 200 && status < 300 && json.ok === true) return json.result;
    if (status >= 300 && status < 400) throw new TelegramError(`Telegram answered ${method} with a redirect (${status}), which is not followed`, status);
    if (status === 401) throw new TelegramError('Telegram refused the bot token (401 Unauthorized): it is wrong or was revoked; check TELEGRAM_BOT_TOKEN', 401);
    if (status === 409) {
      // "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
      // or a webhook is set (freqtrade/freqtrade#43: "terminated by other long poll or webhook").
      throw new TelegramError(`Telegram refused ${method} (409 Conflict): another process reads this bot's updates, or a webhook is set${said(description)}`, 409);
    }
    if (status === 429) {
      const waitFor = cap(telegramRetryAfterMs(isObject(json.parameters) ? json.parameters.retry_after : undefined, retryAfter, description));
      throw new TelegramError(`Telegram asks to wait ${seconds(waitFor)} before ${method} again (429)${said(description)}`, 429, waitFor);
    }
    if (status >= 200 && status < 300) throw new TelegramError(`Telegram's answer to ${method} (${status}) was not the Bot API's`, status);
    throw new TelegramError(`Telegram refused ${method}: ${status}${said(description)}`, status);
  }

  return {
    async sendMessage(chatId, message) {
      await ownTurn();
      const body: Record<string, unknown> = { chat_id: chatIdParam(chatId), ...(isObject(message) ? message : {}) };
      // The destination's chat, whatever the message says.
      body.chat_id = chatIdParam(chatId);
      const answer = await exchange('sendMessage', body, options.timeoutMs);
      // Both are worth another try later: the message may or may not have arrived.
      if (!answer.ok) return { outcome: 'failed', status: null, answer: '', retryable: true, error: answer.error };
      const { status } = answer;
      if (status >= 300 && status < 400) {
        return { outcome: 'failed', status, answer: answer.answer, retryable: false, error: `Telegram answered with a redirect (${status}), which is not followed` };
      }
      const outcome = classifyTelegram(answer);
      return outcome.outcome === 'rate_limited' ? { ...outcome, retryAfterMs: cap(outcome.retryAfterMs) } : outcome;
    },

    async getMe() {
      const result = await read('getMe', {}, options.timeoutMs);
      if (!isObject(result) || typeof result.username !== 'string') throw new TelegramError("Telegram's answer to getMe has no username", 200);
      username = result.username;
      return { username };
    },

    async getUpdates(offset, timeoutSeconds) {
      const params = { ...(offset === undefined ? {} : { offset }), timeout: Math.max(0, Math.floor(timeoutSeconds)), allowed_updates: ['message'] };
      // A long poll is answered up to `timeout` seconds later by design: our patience is on top of that.
      const result = await read('getUpdates', params, Math.max(0, timeoutSeconds) * 1000 + options.timeoutMs);
      if (!Array.isArray(result)) throw new TelegramError("Telegram's answer to getUpdates is not a list", 200);
      return result.filter((update) => isObject(update) && Number.isSafeInteger(update.update_id)).map((update) => updateOf(update));
    },

    startPayload: (text) => startPayload(text, username),
  };
}

/** A chat id as Telegram takes it: an integer (negative for groups), or a channel's `@username`. */
function chatIdParam(chatId: string): number | string {
  const id = Number(chatId);
  return /^-?\d+$/.test(chatId) && Number.isSafeInteger(id) ? id : chatId;
}

function updateOf(update: Record<string, unknown>): TelegramUpdate {
  const message = isObject(update.message) ? update.message : null;
  // Other kinds carry their chat in their own object: edited_message, channel_post, my_chat_member…
  const carrier = message ?? Object.values(update).find((value) => isObject(value) && isObject(value.chat));
  const chat = isObject(carrier) && isObject(carrier.chat) ? carrier.chat : {};
  const from = message && isObject(message.from) ? message.from : {};
  return {
    update_id: update.update_id as number,
    chatId: typeof chat.id === 'number' || typeof chat.id === 'string' ? String(chat.id) : '',
    chatType: typeof chat.type === 'string' ? chat.type : '',
    chatName: (typeof chat.title === 'string' && chat.title) || nameOf(chat) || '',
    text: message && typeof message.text === 'string' ? message.text : null,
    fromName: nameOf(from),
  };
}

/** "Ada Lovelace", else "@ada" (a User or a private Chat: first_name, last_name, username). */
function nameOf(who: Record<string, unknown>): string | null {
  const name = [who.first_name, who.last_name].filter((part) => typeof part === 'string' && part).join(' ');
  return name || (typeof who.username === 'string' && who.username ? `@${who.username}` : null);
}



