/**
 * Fake Slack incoming webhooks and Discord webhooks on 127.0.0.1, speaking their wire formats:
 *
 * - Slack (api.slack.com/messaging/webhooks): POST JSON with `text` or `blocks` to /services/T…/B…/…;
 *   200 `ok` as text/html (a recorded hooks.slack.com answer of 2024-05-31: text/html, 2 bytes; error
 *   words come as text/html too, cloudfoundry-community/slack-notification-resource#96); 400 `no_text`
 *   without either (fluxcd/flagger#1031); 404 `no_service` for a removed webhook (slackapi/slack-github-
 *   action#249), 410 `channel_is_archived` (api.slack.com/changelog/2016-05-17-changes-to-errors-for-
 *   incoming-webhooks); 429 with `Retry-After` in seconds and a JSON body of the recent counts, as
 *   Slack's warning mail shows it (maknz/slack#36; no recent recording found); about one message a
 *   second with short bursts (api.slack.com/docs/rate-limits).
 * - Discord (discord.com/developers/docs/resources/webhook#execute-webhook, …/topics/rate-limits): POST
 *   JSON with `content` or `embeds` to /api/webhooks/<id>/<token>; 204, or 200 with the message under
 *   `?wait=true` (discord-api-docs #5099); 400 `{"code":50006,"message":"Cannot send an empty message"}`
 *   (#5424); 404 `{"code":10015,"message":"Unknown Webhook"}` (#653); five per five seconds per webhook
 *   (#4043), each answer with X-RateLimit-Limit, -Remaining, -Reset, -Reset-After and -Bucket;
 *   429 `{"message":"You are being rate limited.","retry_after","global":false}` with `Retry-After`,
 *   where `retry_after` can come in milliseconds though documented in seconds (discord-api-docs #4722):
 *   `retryAfterUnit`.
 *
 * A POST that arrives while its webhook is told to wait is answered 429 again and kept in `early`: a
 * sender that honours the wait leaves it empty. Time is `now()` (tests pin it).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatPost {
  webhook: string;
  body: unknown;
  at: number;
  status: number;
}

export interface FakeChat {
  kind: 'slack' | 'discord';
  url: string;
  newWebhook(): string;
  posts: ChatPost[];
  early: ChatPost[];
  accepted(webhookUrl: string): unknown[];
  remove(webhookUrl: string, how?: 'removed' | 'archived'): void;
  failNext(status: number, count?: number): void;
  /** The next POST to the webhook is a 429 asking to wait this long. */
  limitNext(webhookUrl: string, waitSeconds: number): void;
  slow(ms: number, webhookUrl?: string): void;
  retryAfterUnit: 's' | 'ms';
  now: () => number;
  close(): Promise<void>;
}

interface HookState {
  gone: 'removed' | 'archived' | null;
  waitUntil: number;
  limitNext: number | null;
  /** Discord's window: its start and how many it took. */
  window: { start: number; used: number };
  slowMs: number;
}

const DISCORD_PER_WINDOW = 5;
const DISCORD_WINDOW_MS = 5000;
const DISCORD_CONTENT_MAX = 2000;

export const startFakeSlack = () => startFakeChat('slack');
export const startFakeDiscord = () => startFakeChat('discord');

async function startFakeChat(kind: 'slack' | 'discord'): Promise<FakeChat> {
  const hooks = new Map<string, HookState>();
  const failures: number[] = [];
  let slowAll = 0;
  const pathOf = (url: string) => new URL(url).pathname;
  let messages = 0;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const type = typeof body === 'string' ? 'text/html' : 'application/json';
    res.writeHead(status, { 'content-type': type, ...headers }).end(status === 204 ? undefined : text);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const [path, query = ''] = (req.url ?? '').split('?');
      const hook = hooks.get(path!);
      const at = fake.now();
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // Both services refuse a body that is not JSON as a bad request.
      }
      const record = (status: number) => {
        const post = { webhook: path!, body, at, status };
        fake.posts.push(post);
        return post;
      };
      const delay = (hook?.slowMs ?? 0) || slowAll;
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      if (req.method !== 'POST' || !hook) {
        record(404);
        return send(res, 404, kind === 'slack' ? 'no_service' : { message: 'Unknown Webhook', code: 10015 });
      }
      if (hook.gone) {
        record(hook.gone === 'archived' ? 410 : 404);
        if (kind === 'discord') return send(res, 404, { message: 'Unknown Webhook', code: 10015 });
        return send(res, hook.gone === 'archived' ? 410 : 404, hook.gone === 'archived' ? 'channel_is_archived' : 'no_service');
      }
      const failure = failures.shift();
      if (failure) {
        record(failure);
        return send(res, failure, kind === 'slack' ? 'internal_error' : { message: '500: Internal Server Error', code: 0 });
      }
      if (at < hook.waitUntil) {
        fake.early.push(record(429));
        return tooMany(res, hook.waitUntil - at);
      }
      if (hook.limitNext !== null) {
        hook.waitUntil = at + hook.limitNext * 1000;
        hook.limitNext = null;
        record(429);
        return tooMany(res, hook.waitUntil - at);
      }
      if (kind === 'discord') {
        if (at - hook.window.start >= DISCORD_WINDOW_MS) hook.window = { start: at, used: 0 };
        if (hook.window.used >= DISCORD_PER_WINDOW) {
          hook.waitUntil = hook.window.start + DISCORD_WINDOW_MS;
          record(429);
          return tooMany(res, hook.waitUntil - at);
        }
        hook.window.used += 1;
      }
      const content = body as { text?: unknown; blocks?: unknown; content?: unknown; embeds?: unknown } | null;
      const empty = kind === 'slack' ? !content?.text && !content?.blocks : !content?.content && !content?.embeds;
      if (empty) {
        record(400);
        return kind === 'slack' ? send(res, 400, 'no_text') : send(res, 400, { message: 'Cannot send an empty message', code: 50006 });
      }
      // Discord's form-body error for content over 2,000 characters, as its docs show the shape of code 50035
      // (discord.com/developers/docs/topics/opcodes-and-status-codes#json, "Invalid Form Body"; BASE_TYPE_MAX_LENGTH).
      if (kind === 'discord' && typeof content?.content === 'string' && [...content.content].length > DISCORD_CONTENT_MAX) {
        record(400);
        const errors = { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${DISCORD_CONTENT_MAX} or fewer in length.` }] } };
        return send(res, 400, { code: 50035, errors, message: 'Invalid Form Body' });
      }
      record(200);
      if (kind === 'slack') return send(res, 200, 'ok');
      const left = String(DISCORD_PER_WINDOW - hook.window.used);
      const resetAt = (hook.window.start + DISCORD_WINDOW_MS) / 1000;
      const limits = {
        'x-ratelimit-limit': String(DISCORD_PER_WINDOW),
        'x-ratelimit-remaining': left,
        'x-ratelimit-reset': resetAt.toFixed(3),
        'x-ratelimit-reset-after': ((resetAt * 1000 - at) / 1000).toFixed(3),
        'x-ratelimit-bucket': createHash('sha1').update(path!).digest('hex').slice(0, 32),
      };
      if (!/(^|&)wait=true(&|$)/.test(query)) return send(res, 204, '', limits);
      messages += 1;
      return send(res, 200, { id: `1300000000000${String(messages).padStart(6, '0')}`, type: 0, content: content?.content ?? '', webhook_id: path!.split('/')[3] }, limits);
    });
  });

  function tooMany(res: ServerResponse, waitMs: number) {
    const seconds = Math.ceil(waitMs / 1000);
    if (kind === 'slack') {
      const recent = (since: number) => fake.posts.filter((p) => p.at > fake.now() - since).length;
      const counts = { ok: false, count_hour_ago: recent(3_600_000), count_minute_ago: recent(60_000), count_second_ago: recent(1000) };
      return send(res, 429, counts, { 'retry-after': String(seconds) });
    }
    const retryAfter = fake.retryAfterUnit === 'ms' ? waitMs : Math.round(waitMs) / 1000;
    return send(res, 429, { message: 'You are being rate limited.', retry_after: retryAfter, global: false }, { 'retry-after': String(seconds), 'x-ratelimit-remaining': '0', 'x-ratelimit-scope': 'user' });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stateOf = (webhookUrl: string) => hooks.get(pathOf(webhookUrl))!;

  const fake: FakeChat = {
    kind,
    url,
    posts: [],
    early: [],
    retryAfterUnit: 's',
    now: () => Date.now(),
    newWebhook() {
      const secret = randomBytes(12).toString('hex');
      const path = kind === 'slack' ? `/services/T0TEST/B${randomBytes(4).toString('hex').toUpperCase()}/${secret}` : `/api/webhooks/${Date.now()}${hooks.size}/${secret}`;
      hooks.set(path, { gone: null, waitUntil: 0, limitNext: null, window: { start: -Infinity, used: 0 }, slowMs: 0 });
      return `${url}${path}`;
    },
    accepted: (webhookUrl) => fake.posts.filter((p) => p.webhook === pathOf(webhookUrl) && p.status === 200).map((p) => p.body),
    remove: (webhookUrl, how = 'removed') => void (stateOf(webhookUrl).gone = how),
    failNext: (status, count = 1) => void failures.push(...Array.from({ length: count }, () => status)),
    limitNext: (webhookUrl, waitSeconds) => void (stateOf(webhookUrl).limitNext = waitSeconds),
    slow: (ms, webhookUrl) => (webhookUrl ? void (stateOf(webhookUrl).slowMs = ms) : void (slowAll = ms)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
