import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeDiscord, startFakeSlack, type FakeChat } from '../../../test/support/fake-chat-webhooks.ts';
import { postChat, type ChatClientOptions, type ChatKind, type ChatOutcome } from './chat.client.ts';
import { discordRetryAfterMs } from './discord.ts';

let slack: FakeChat;
let discord: FakeChat;
/** Every request this client made, as fetch saw it (the fakes do not record headers). */
let requests: { url: string; init: RequestInit }[];
/** Every outcome, and the webhook it was for: none may repeat the webhook's address. */
let outcomes: { webhook: string; outcome: ChatOutcome }[];

beforeEach(async () => {
  [slack, discord] = await Promise.all([startFakeSlack(), startFakeDiscord()]);
  requests = [];
  outcomes = [];
});
afterEach(async () => {
  await Promise.all([slack.close(), discord.close()]);
});

const recordingFetch: typeof fetch = (input, init) => {
  requests.push({ url: String(input), init: init ?? {} });
  return fetch(input, init);
};

async function post(kind: ChatKind, webhook: string, message: unknown, overrides: Partial<ChatClientOptions> = {}) {
  const outcome = await postChat(kind, webhook, message, { timeoutMs: 5000, maxRetryAfterMs: 600_000, fetch: recordingFetch, ...overrides });
  outcomes.push({ webhook, outcome });
  return outcome;
}

/** A webhook that answers what it is told, for the answers the fakes do not give. */
const answering = (status: number, body: string, headers: Record<string, string> = {}): typeof fetch =>
  async (input, init) => {
    requests.push({ url: String(input), init: init ?? {} });
    // A 204 or 304 may not carry a body, not even an empty one.
    return new Response(status === 204 || status === 304 ? null : body, { status, headers });
  };

const SLACK_MESSAGE = { text: 'New match in r/typescript' };
const DISCORD_MESSAGE = { content: 'New match in r/typescript' };
const STUB_SLACK = 'https://hooks.slack.com/services/T0TEST/B0TEST/s3cretT0kenValue000000';
const STUB_DISCORD = 'https://discord.com/api/webhooks/1234567890/s3cret-T0ken_Value-000000000000';

describe('posting to Slack', () => {
  it('posts the message as JSON with our user agent, follows no redirect, and calls an answered 200 sent', async () => {
    const webhook = slack.newWebhook();
    const outcome = await post('slack', webhook, SLACK_MESSAGE);
    expect(outcome).toEqual({ outcome: 'sent', status: 200, answer: 'ok', messageId: null });
    expect(slack.accepted(webhook)).toEqual([SLACK_MESSAGE]);
    const [request] = requests;
    expect(request!.url).toBe(webhook);
    expect(request!.init.method).toBe('POST');
    expect(request!.init.redirect).toBe('manual');
    expect(request!.init.signal).toBeInstanceOf(AbortSignal);
    expect(request!.init.headers).toEqual({ 'content-type': 'application/json', 'user-agent': 'subpilot-alerts/1' });
  });

  it('calls a removed webhook (404 no_service) gone, with a reason the owner can read', async () => {
    const webhook = slack.newWebhook();
    slack.remove(webhook);
    const outcome = await post('slack', webhook, SLACK_MESSAGE);
    expect(outcome).toMatchObject({ outcome: 'gone', status: 404, answer: 'no_service' });
    expect(outcome.outcome === 'gone' && outcome.reason).toMatch(/removed or disabled/);
  });

  it('calls a webhook whose channel was archived (410 channel_is_archived) gone', async () => {
    const webhook = slack.newWebhook();
    slack.remove(webhook, 'archived');
    expect(await post('slack', webhook, SLACK_MESSAGE)).toMatchObject({ outcome: 'gone', status: 410, answer: 'channel_is_archived' });
  });

  it.each([
    [403, 'invalid_token', 'gone'],
    [400, 'invalid_token', 'gone'],
    [404, 'channel_not_found', 'gone'],
    [403, 'action_prohibited', 'failed'],
    [400, 'invalid_payload', 'failed'],
  ])('calls a %i %s from Slack %s', async (status, word, expected) => {
    const outcome = await post('slack', STUB_SLACK, SLACK_MESSAGE, { fetch: answering(status, word) });
    expect(outcome).toMatchObject({ outcome: expected, status, answer: word });
    if (outcome.outcome === 'failed') expect(outcome.retryable).toBe(false);
  });

  it('waits the seconds of a 429 Retry-After, in milliseconds', async () => {
    const webhook = slack.newWebhook();
    slack.limitNext(webhook, 3);
    expect(await post('slack', webhook, SLACK_MESSAGE)).toMatchObject({ outcome: 'rate_limited', status: 429, answer: expect.stringContaining('"ok":false'), retryAfterMs: 3000 });
  });

  it('waits a second after a 429 without Retry-After, Slack\'s pace', async () => {
    expect(await post('slack', STUB_SLACK, SLACK_MESSAGE, { fetch: answering(429, 'rate_limited') })).toMatchObject({ outcome: 'rate_limited', retryAfterMs: 1000 });
  });

  it('cuts a stated wait longer than the cap to the cap', async () => {
    const webhook = slack.newWebhook();
    slack.limitNext(webhook, 3600);
    expect(await post('slack', webhook, SLACK_MESSAGE, { maxRetryAfterMs: 60_000 })).toMatchObject({ outcome: 'rate_limited', retryAfterMs: 60_000 });
  });

  it('calls a 5xx a failure worth retrying', async () => {
    const webhook = slack.newWebhook();
    slack.failNext(503);
    expect(await post('slack', webhook, SLACK_MESSAGE)).toEqual({
      outcome: 'failed', status: 503, answer: 'internal_error', retryable: true, error: 'Slack answered 503 internal_error',
    });
  });

  it('calls a 400 for a message without text a failure not worth retrying', async () => {
    const webhook = slack.newWebhook();
    expect(await post('slack', webhook, {})).toEqual({
      outcome: 'failed', status: 400, answer: 'no_text', retryable: false, error: 'Slack refused the message: 400 no_text',
    });
  });

  it('gives up on a webhook that does not answer in time, as a failure worth retrying', async () => {
    const webhook = slack.newWebhook();
    slack.slow(1000, webhook);
    expect(await post('slack', webhook, SLACK_MESSAGE, { timeoutMs: 200 })).toEqual({
      outcome: 'failed', status: null, answer: '', retryable: true, error: 'Slack did not answer within 0.2 s',
    });
  });

  it('calls a refused connection a failure worth retrying', async () => {
    const gone = await startFakeSlack();
    const webhook = gone.newWebhook();
    await gone.close();
    const outcome = await post('slack', webhook, SLACK_MESSAGE);
    expect(outcome).toMatchObject({ outcome: 'failed', status: null, retryable: true });
    expect(outcome.outcome === 'failed' && outcome.error).toMatch(/^could not connect to Slack/);
  });

  it('does not follow a redirect, and does not retry it', async () => {
    const outcome = await post('slack', STUB_SLACK, SLACK_MESSAGE, { fetch: answering(302, '', { location: 'https://elsewhere.example/' }) });
    expect(outcome).toMatchObject({ outcome: 'failed', status: 302, retryable: false });
    expect(requests).toHaveLength(1);
  });
});

describe('posting to Discord', () => {
  it('asks Discord to wait for the message and keeps its id as the receipt', async () => {
    const webhook = discord.newWebhook();
    const outcome = await post('discord', webhook, DISCORD_MESSAGE);
    expect(outcome).toMatchObject({ outcome: 'sent', status: 200, messageId: expect.stringMatching(/^\d+$/) });
    expect(JSON.parse(outcome.answer)).toMatchObject({ id: (outcome as { messageId: string }).messageId, content: DISCORD_MESSAGE.content });
    expect(requests[0]!.url).toBe(`${webhook}?wait=true`);
    expect(discord.accepted(webhook)).toEqual([DISCORD_MESSAGE]);
  });

  it('calls a 204 without a body sent, with no receipt', async () => {
    expect(await post('discord', STUB_DISCORD, DISCORD_MESSAGE, { fetch: answering(204, '') })).toEqual({ outcome: 'sent', status: 204, answer: '', messageId: null });
  });

  it('calls a deleted webhook (404 Unknown Webhook, 10015) gone', async () => {
    const webhook = discord.newWebhook();
    discord.remove(webhook);
    const outcome = await post('discord', webhook, DISCORD_MESSAGE);
    expect(outcome).toMatchObject({ outcome: 'gone', status: 404, reason: expect.stringMatching(/Unknown Webhook/) });
    expect(JSON.parse(outcome.answer)).toEqual({ message: 'Unknown Webhook', code: 10015 });
  });

  it('calls a webhook whose token was reset (401 Invalid Webhook Token, 50027) gone', async () => {
    const answer = JSON.stringify({ message: 'Invalid Webhook Token', code: 50027 });
    expect(await post('discord', STUB_DISCORD, DISCORD_MESSAGE, { fetch: answering(401, answer) })).toMatchObject({ outcome: 'gone', status: 401, answer });
  });

  it('calls a 404 without a JSON code gone too', async () => {
    expect(await post('discord', STUB_DISCORD, DISCORD_MESSAGE, { fetch: answering(404, '<html>Not Found</html>') })).toMatchObject({ outcome: 'gone', status: 404 });
  });

  it('waits the seconds a 429 states when they are seconds', async () => {
    const webhook = discord.newWebhook();
    discord.limitNext(webhook, 2);
    const outcome = await post('discord', webhook, DISCORD_MESSAGE);
    expect(outcome).toMatchObject({ outcome: 'rate_limited', status: 429, retryAfterMs: 2000 });
    expect(JSON.parse(outcome.answer)).toMatchObject({ retry_after: 2, global: false });
  });

  it('a Discord 429 whose retry_after is in milliseconds waits that many milliseconds, not a thousand times more', async () => {
    discord.retryAfterUnit = 'ms';
    const webhook = discord.newWebhook();
    discord.limitNext(webhook, 2);
    const outcome = await post('discord', webhook, DISCORD_MESSAGE);
    expect(JSON.parse(outcome.answer)).toMatchObject({ retry_after: 2000 });
    expect(outcome).toMatchObject({ outcome: 'rate_limited', retryAfterMs: 2000 });
  });

  it('cuts a stated wait longer than the cap to the cap', async () => {
    const webhook = discord.newWebhook();
    discord.limitNext(webhook, 3600);
    expect(await post('discord', webhook, DISCORD_MESSAGE, { maxRetryAfterMs: 60_000 })).toMatchObject({ outcome: 'rate_limited', retryAfterMs: 60_000 });
  });

  it('calls a 5xx a failure worth retrying', async () => {
    const webhook = discord.newWebhook();
    discord.failNext(502);
    expect(await post('discord', webhook, DISCORD_MESSAGE)).toMatchObject({ outcome: 'failed', status: 502, retryable: true });
  });

  it('calls a 400 for an empty message a failure not worth retrying', async () => {
    const webhook = discord.newWebhook();
    expect(await post('discord', webhook, {})).toMatchObject({
      outcome: 'failed', status: 400, retryable: false, error: 'Discord refused the message: 400: Cannot send an empty message (code 50006)',
    });
  });

  it('calls content over 2,000 characters (400 Invalid Form Body, 50035) a failure not worth retrying', async () => {
    const outcome = await post('discord', discord.newWebhook(), { content: 'x'.repeat(2001) });
    expect(outcome).toMatchObject({ outcome: 'failed', status: 400, retryable: false });
    expect(outcome.answer).toContain('BASE_TYPE_MAX_LENGTH');
  });

  it('gives up on a webhook that does not answer in time, as a failure worth retrying', async () => {
    const webhook = discord.newWebhook();
    discord.slow(1000, webhook);
    expect(await post('discord', webhook, DISCORD_MESSAGE, { timeoutMs: 200 })).toEqual({
      outcome: 'failed', status: null, answer: '', retryable: true, error: 'Discord did not answer within 0.2 s',
    });
  });
});

describe("Discord's 429 wait", () => {
  const cases: [string, string | null, unknown, number][] = [
    ['seconds in both', '2', 2, 2000],
    ['a fraction of a second under a header rounded up', '1', 0.25, 1000],
    ['milliseconds in the body beside seconds in the header', '2', 2000, 2000],
    ['milliseconds in the body beside a header of 0', '0', 250, 250],
    ['a fraction of a second beside a header of 0', '0', 0.25, 250],
    ['milliseconds in both, past an hour (discord-api-docs #2360)', '5000', 5000, 5000],
    ['seconds only in the body', null, 1.5, 1500],
    ['milliseconds only in the body, past an hour', null, 4500, 4.5 * 1000],
    ['seconds only in the header', '3', undefined, 3000],
    ['nothing', null, undefined, 1000],
    ['a long wait in seconds that the header confirms', '738', 737.3, 738_000],
  ];
  it.each(cases)('reads %s', (_, header, retryAfter, expected) => {
    expect(discordRetryAfterMs(header, retryAfter)).toBe(expected);
  });
});

describe('the webhook address', () => {
  it('never appears in an outcome, even when the answer echoes it', async () => {
    const slackHook = slack.newWebhook();
    const discordHook = discord.newWebhook();
    await post('slack', slackHook, SLACK_MESSAGE);
    await post('discord', discordHook, DISCORD_MESSAGE);
    slack.failNext(500);
    await post('slack', slackHook, SLACK_MESSAGE);
    discord.remove(discordHook);
    await post('discord', discordHook, DISCORD_MESSAGE);
    const echo = `<html>502 Bad Gateway: upstream ${STUB_DISCORD}?wait=true failed, token ${STUB_DISCORD.split('/').at(-1)}</html>`;
    const echoed = await post('discord', STUB_DISCORD, DISCORD_MESSAGE, { fetch: answering(502, echo) });
    expect(echoed.answer).toContain('502 Bad Gateway');
    // No scheme: not a URL, so nothing is sent anywhere.
    await post('slack', 'hooks.slack.com/services/T0TEST/B0TEST/s3cretNotAUrl000000', SLACK_MESSAGE);
    const closed = await startFakeSlack();
    const refused = closed.newWebhook();
    await closed.close();
    await post('slack', refused, SLACK_MESSAGE);

    expect(outcomes).toHaveLength(7);
    for (const { webhook, outcome } of outcomes) {
      const text = JSON.stringify(outcome);
      const token = webhook.split('/').at(-1)!;
      expect(text).not.toContain(webhook);
      expect(text).not.toContain(token);
    }
  });

  it('is refused before any request when it is not a URL, without quoting it', async () => {
    const outcome = await post('discord', 'discord webhook s3cret', DISCORD_MESSAGE);
    expect(outcome).toEqual({ outcome: 'failed', status: null, answer: '', retryable: false, error: 'the Discord webhook address is not a valid URL' });
    expect(requests).toHaveLength(0);
  });
});

describe('a long answer', () => {
  it('is clipped to 500 characters', async () => {
    const outcome = await post('slack', STUB_SLACK, SLACK_MESSAGE, { fetch: answering(500, 'x'.repeat(2000)) });
    expect(outcome.answer).toHaveLength(500);
  });
});
