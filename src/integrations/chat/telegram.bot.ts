/**
 * What the Telegram Bot API's answers mean, and what a `/start` message links: the bot's reading of
 * Telegram, without HTTP. The bot itself (sendMessage, getMe, getUpdates) is telegram.ts, which also
 * exports what is here.
 *
 * Every answer is JSON: `{"ok":true,"result":…}` or `{"ok":false,"error_code","description"[,"parameters"]}`,
 * with the HTTP status equal to `error_code`; `parameters` holds `retry_after` (seconds) or
 * `migrate_to_chat_id` (core.telegram.org/bots/api#making-requests, #responseparameters).
 *
 * - 200 with `ok: true`: posted; the Message's `message_id` is the receipt ("unique message identifier
 *   inside this chat", core.telegram.org/bots/api#message). A 2xx without `ok: true` is no answer of
 *   Telegram's (a proxy's page): the message most likely did not arrive, so it is worth another try.
 * - 429: see `telegramRetryAfterMs`.
 * - Gone, switch the destination off (the chat cannot receive from this bot until a person acts):
 *   - 403 "Forbidden: bot was blocked by the user" (/work/shared/reference/delivery-2026.md);
 *   - 403 "Forbidden: bot was kicked from the group chat" (also "supergroup chat", "channel chat"),
 *     "Forbidden: bot is not a member of the channel chat", "Forbidden: user is deactivated" (the account
 *     was deleted), "Forbidden: bot can't initiate conversation with a user" (tucnak/telebot#659 lists
 *     them as Telegram words them; aiogram/aiogram#445; LibertyPaul/LostFilmUpdatesBot#57);
 *   - 400 "Bad Request: chat not found" (bottenderjs/messaging-apis#414: a chat the bot never had or
 *     that was deleted);
 *   - 400 "Bad Request: group chat was upgraded to a supergroup chat" with `parameters.migrate_to_chat_id`
 *     (TwiN/gatus#179; worded "is migrated to a supergroup chat" in 2016, TelegramBots/Telegram.Bot#171):
 *     the group has a new id, and the owner links it again (switching ids silently would send alerts
 *     to a chat nobody confirmed).
 * - 5xx: Telegram's `{"ok":false,"error_code":502,"description":"Bad Gateway"}` (tdlib/telegram-bot-api#868)
 *   or its front's nginx page (nickoala/telepot#31): retry later.
 * - 401 "Unauthorized": the operator's token is wrong or was revoked ("the only way to receive error
 *   with code 401 is to provide a wrong bot token", tdlib/telegram-bot-api#80). Not the chat's fault,
 *   so the destination stays on; retrying with the same token cannot help.
 * - Any other 4xx (400 "message text is empty", "message is too long", "can't parse entities", "not
 *   enough rights to send text messages to the chat"…): our message or a setting is wrong; not retried.
 */
import { isObject, parseObject, said } from './chat.answers.ts';
import type { ChatAnswer, ChatOutcome } from './chat.types.ts';

/** Telegram's words (after "Forbidden: " or "Bad Request: ") and what they mean to the owner. */
const GONE: [RegExp, string][] = [
  [/bot was blocked by the user/i, 'Telegram says the person blocked the bot'],
  [/bot was kicked from the (?:super)?group chat/i, 'Telegram says the bot was removed from the group'],
  [/bot was kicked from the channel chat|bot is not a member of the channel chat/i, 'Telegram says the bot was removed from the channel'],
  [/bot is not a member of the (?:super)?group chat/i, 'Telegram says the bot was removed from the group'],
  [/user is deactivated/i, "Telegram says the person's account was deleted"],
  [/bot can't initiate conversation with a user/i, 'Telegram says the person never started a conversation with the bot'],
  [/chat not found/i, 'Telegram says the chat does not exist or the bot cannot see it'],
];
const UPGRADED = /upgraded to a supergroup|migrated to a supergroup/i;

export function classifyTelegram({ status, body, answer, retryAfter }: ChatAnswer): ChatOutcome {
  const json = parseObject(body);
  const description = typeof json.description === 'string' ? json.description.slice(0, 100) : '';
  const parameters = isObject(json.parameters) ? json.parameters : {};
  if (status >= 200 && status < 300) {
    if (json.ok !== true) return { outcome: 'failed', status, answer, retryable: true, error: `Telegram's answer (${status}) was not the Bot API's: the message most likely did not arrive` };
    const id = isObject(json.result) ? json.result.message_id : undefined;
    return { outcome: 'sent', status, answer, messageId: Number.isSafeInteger(id) ? String(id) : null };
  }
  if (status === 429) {
    return { outcome: 'rate_limited', status, answer, retryAfterMs: telegramRetryAfterMs(parameters.retry_after, retryAfter, description) };
  }
  if (status >= 500) return { outcome: 'failed', status, answer, retryable: true, error: `Telegram answered ${status}${said(description)}` };
  if (status === 400 && (UPGRADED.test(description) || parameters.migrate_to_chat_id !== undefined)) {
    return { outcome: 'gone', status, answer, reason: 'Telegram says the group became a supergroup, which has a new chat id: link the group again' };
  }
  if (status === 400 || status === 403) {
    const gone = GONE.find(([words]) => words.test(description));
    if (gone) return { outcome: 'gone', status, answer, reason: `${gone[1]} (${description.replace(/^(Forbidden|Bad Request): /, '')})` };
  }
  if (status === 401) {
    return { outcome: 'failed', status, answer, retryable: false, error: 'Telegram refused the bot token (401 Unauthorized): it is wrong or was revoked; check TELEGRAM_BOT_TOKEN' };
  }
  return { outcome: 'failed', status, answer, retryable: false, error: `Telegram refused the message: ${status}${said(description)}` };
}

const DEFAULT_WAIT_MS = 1000;

/**
 * Telegram's wait after a 429, in milliseconds (uncapped: the caller caps). `parameters.retry_after`
 * is "the number of seconds left to wait before the request can be repeated" (core.telegram.org/bots/
 * api#responseparameters); waits of an hour and more are real (tdlib/telegram-bot-api#184: 2282 s;
 * telegraf/telegraf#1046: 18053 s), so no unit is guessed. Answers of 2016 carried the wait only in
 * the description, without `parameters` and without a Retry-After header (recorded in hdghg/cjbot#13:
 * `"Too Many Requests: retry after 3"`), so the order is: `retry_after`, a Retry-After header (a proxy's),
 * the description's number, then 1 s, the pace of one chat (core.telegram.org/bots/faq).
 */
export function telegramRetryAfterMs(retryAfter: unknown, header: string | null, description: string): number {
  if (typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter >= 0) return Math.ceil(retryAfter * 1000);
  const headerValue = header !== null && header.trim() !== '' ? Number(header.trim()) : NaN;
  if (Number.isFinite(headerValue) && headerValue >= 0) return Math.ceil(headerValue * 1000);
  const stated = /retry after (\d{1,7})\b/i.exec(description);
  return stated ? Number(stated[1]) * 1000 : DEFAULT_WAIT_MS;
}

/**
 * The payload of a deep link: `https://t.me/<bot>?start=<payload>` makes the person's client send
 * `/start <payload>` to the bot, and `?startgroup=<payload>` sends `/start@<bot> <payload>` in the group
 * it is added to; the payload is up to 64 of A-Z, a-z, 0-9, _ and - (core.telegram.org/bots/features#
 * deep-linking). Null for anything else, a bare `/start` included. With `botUsername`, a command
 * addressed to another bot (`/start@other_bot …`, which a bot with group privacy off also receives)
 * is not ours.
 */
export function startPayload(text: string | null, botUsername?: string | null): string | null {
  const command = /^\/start(?:@([A-Za-z0-9_]{1,64}))?[ \t]+([A-Za-z0-9_-]{1,64})\s*$/.exec(text?.trim() ?? '');
  if (!command) return null;
  if (command[1] && botUsername && command[1].toLowerCase() !== botUsername.toLowerCase()) return null;
  return command[2]!;
}



