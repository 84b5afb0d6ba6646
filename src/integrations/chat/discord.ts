/**
 * What a Discord webhook's answer means. Discord answers JSON errors `{"message","code"}`
 * (discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes).
 *
 * - 204, or 200 with the created message under `?wait=true`: posted; the message `id` is the receipt
 *   (discord.com/developers/docs/resources/webhook#execute-webhook).
 * - Gone, switch the destination off:
 *   - 404, with code 10015 "Unknown Webhook" (the webhook was deleted) or without a code: the address
 *     leads nowhere.
 *   - 401 with code 50027 "Invalid Webhook Token": the webhook exists but its token (the URL's last
 *     segment) no longer matches, as after a token reset; the URL we hold can never post again.
 *     Discord answers 401 for it (discord.js errors quoted in thesleax/ticket-bot#2, Kav-K/GPTDiscord#431;
 *     the body `{"code":50027,"message":"Invalid Webhook Token"}` in discord/discord-api-docs#1033).
 *   - code 10015 with another 4xx status, likewise.
 * - 429: see `discordRetryAfterMs`.
 * - 5xx (502 "no gateway available… wait a bit and retry", the response-code table): retry later.
 * - Any other 4xx (400 50006 empty message, 50035 invalid form body, 403 missing access…): our message
 *   or a setting is wrong; retrying the same request cannot help.
 */
import { parseObject, said } from './chat.answers.ts';
import type { ChatAnswer, ChatOutcome } from './chat.types.ts';

const UNKNOWN_WEBHOOK = 10015;
const INVALID_WEBHOOK_TOKEN = 50027;

export function classifyDiscord({ status, body, answer, retryAfter }: ChatAnswer): ChatOutcome {
  const json = parseObject(body);
  const code = typeof json.code === 'number' ? json.code : null;
  const message = typeof json.message === 'string' ? json.message.slice(0, 100) : '';
  if (status >= 200 && status < 300) {
    // A snowflake: digits, sent as a string so that it survives JSON numbers.
    const id = typeof json.id === 'string' && /^\d{1,25}$/.test(json.id) ? json.id : null;
    return { outcome: 'sent', status, answer, messageId: id };
  }
  if (status === 429) {
    // `global: true` would mean a limit across all our Discord calls, not just this webhook's (for
    // calls without a token, as webhook calls are, that is our address: docs.discord.food/topics/
    // rate-limits). This client reports it for this webhook only: the wait holds this destination, and
    // pausing the others is the outbox's choice if it ever wants to make it.
    return { outcome: 'rate_limited', status, answer, retryAfterMs: discordRetryAfterMs(retryAfter, json.retry_after) };
  }
  if (status >= 500) return { outcome: 'failed', status, answer, retryable: true, error: `Discord answered ${status}${said(message)}` };
  if (code === UNKNOWN_WEBHOOK || (status === 404 && code === null)) {
    return { outcome: 'gone', status, answer, reason: 'Discord says the webhook was deleted (Unknown Webhook)' };
  }
  if (status === 404) return { outcome: 'gone', status, answer, reason: `Discord answered 404: the webhook does not exist${said(message)}` };
  if (status === 401 && code === INVALID_WEBHOOK_TOKEN) {
    return { outcome: 'gone', status, answer, reason: "Discord says the webhook's token is no longer valid (Invalid Webhook Token)" };
  }
  return { outcome: 'failed', status, answer, retryable: false, error: `Discord refused the message: ${status}${said(message)}${code !== null ? ` (code ${code})` : ''}` };
}

/** Longer than this many seconds is no wait Discord would state for a webhook: it was milliseconds. */
const PLAUSIBLE_SECONDS = 3600;
const DEFAULT_WAIT_MS = 1000;

/**
 * Discord's wait after a 429, in milliseconds (uncapped: the caller caps).
 *
 * The units: the docs give the body's `retry_after` as float seconds and the `Retry-After` header
 * as seconds (discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit). API v8 changed
 * `retry_after` from milliseconds to seconds (discord/discord-api-docs#2823), and older versions,
 * which an unversioned `/api/webhooks/…` URL as Discord hands it out still reaches, answer in
 * milliseconds: discord/discord-api-docs#4722 (closed as "a deprecated API version"), and #2360, where
 * even `Retry-After` came in milliseconds on such a URL.
 *
 * The rule:
 * 1. Header H: a number ≥ 0. Above 3600 it was milliseconds (#2360), otherwise seconds.
 * 2. Body B (`retry_after`), with a header: seconds when within 1 s of H (H is whole seconds, B has a
 *    fraction), otherwise in whichever unit lands nearer H. So 2 with H 2 is 2 s; 2000 with H 2 is
 *    2 s, not 2000 s; 0.25 with H 0 is 0.25 s; 250 with H 0 is 0.25 s.
 *    Without a header: milliseconds above 3600, otherwise seconds.
 * 3. The wait is the longer of the two readings (never earlier than either says), rounded up to the
 *    millisecond; with neither, 1 s.
 * Where this can still misread: both header and body in milliseconds and both ≤ 3600 (an old-version
 * 2 s wait stated "2000" twice) reads as 2000 s, and a body in milliseconds ≤ 3600 without a header
 * likewise. Both err towards waiting too long, which the cap bounds, never towards sending early.
 */
export function discordRetryAfterMs(header: string | null, retryAfter: unknown): number {
  const headerValue = header !== null && header.trim() !== '' ? Number(header.trim()) : NaN;
  const headerSeconds = Number.isFinite(headerValue) && headerValue >= 0 ? (headerValue > PLAUSIBLE_SECONDS ? headerValue / 1000 : headerValue) : null;
  const stated = typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null;
  let bodySeconds: number | null = null;
  if (stated !== null && headerSeconds !== null) {
    const asSeconds = Math.abs(stated - headerSeconds);
    const asMilliseconds = Math.abs(stated / 1000 - headerSeconds);
    bodySeconds = asSeconds <= 1 || asSeconds <= asMilliseconds ? stated : stated / 1000;
  } else if (stated !== null) {
    bodySeconds = stated > PLAUSIBLE_SECONDS ? stated / 1000 : stated;
  }
  if (headerSeconds === null && bodySeconds === null) return DEFAULT_WAIT_MS;
  // Less a hair, so that 1.1 s is 1100 ms and not 1101 (1.1 * 1000 = 1100.0000000000002).
  return Math.ceil(Math.max(headerSeconds ?? 0, bodySeconds ?? 0) * 1000 - 1e-6);
}


