/**
 * Posts one message to a Slack incoming webhook or a Discord webhook and classifies the answer, so
 * that the outbox knows what to do with the row: sent, rate limited (wait this long), gone (switch
 * the destination off) or failed (retry later, or not). One exchange, never repeated here: retries
 * and pacing belong to the outbox (issue 43).
 *
 * The webhook URL is a secret (issue 43: "never in a log or an answer"): no error, reason or answer
 * built here repeats it, and an answer that echoes it (a proxy's error page) has it cut out.
 * What each service's statuses mean, with sources, is in slack.ts and discord.ts.
 */
import { clip, isTimeout, networkCode, redact, seconds } from './chat.answers.ts';
import { classifyDiscord } from './discord.ts';
import { classifySlack } from './slack.ts';
import type { ChatClientOptions, ChatKind, ChatOutcome } from './chat.types.ts';

export type { ChatClientOptions, ChatKind, ChatOutcome } from './chat.types.ts';

const SERVICE_NAME: Record<ChatKind, string> = { slack: 'Slack', discord: 'Discord' };
const USER_AGENT = 'subpilot-alerts/1';

export async function postChat(kind: ChatKind, webhookUrl: string, message: unknown, options: ChatClientOptions): Promise<ChatOutcome> {
  const name = SERVICE_NAME[kind];
  let target: URL;
  try {
    target = new URL(webhookUrl);
  } catch {
    // fetch's own error would quote the address.
    return failed(null, '', false, `the ${name} webhook address is not a valid URL`);
  }
  // With wait=true Discord answers 200 with the message it created: its id is the receipt of the send
  // (discord.com/developers/docs/resources/webhook#execute-webhook, query `wait`).
  if (kind === 'discord') target.searchParams.set('wait', 'true');
  const secrets = secretsOf(webhookUrl, target);

  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(target.toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body: JSON.stringify(message),
      // A redirect would carry the message (and our trust) to a host nobody checked: never followed.
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (cause) {
    // Both are worth another try later: the message may or may not have arrived (the outbox's
    // documented "at most once more" for channels without a receipt).
    if (isTimeout(cause)) return failed(null, '', true, `${name} did not answer within ${seconds(options.timeoutMs)}`);
    const code = networkCode(cause);
    return failed(null, '', true, `could not connect to ${name}${code ? ` (${code})` : ''}`);
  }

  let body = '';
  try {
    body = redact(await response.text(), secrets);
  } catch {
    // The body timed out or broke off after the status line: the status is what we know.
  }
  const answer = clip(body);
  const { status } = response;
  if (status >= 300 && status < 400) {
    return failed(status, answer, false, `${name} answered with a redirect (${status}), which is not followed`);
  }
  const classify = kind === 'slack' ? classifySlack : classifyDiscord;
  const outcome = classify({ status, body, answer, retryAfter: response.headers.get('retry-after') });
  if (outcome.outcome !== 'rate_limited') return outcome;
  return { ...outcome, retryAfterMs: Math.max(0, Math.min(outcome.retryAfterMs, options.maxRetryAfterMs)) };
}

function failed(status: number | null, answer: string, retryable: boolean, error: string): ChatOutcome {
  return { outcome: 'failed', status, answer, retryable, error };
}

/** The webhook's address in the forms an answer could echo: whole, as requested, its path, its token. */
function secretsOf(webhookUrl: string, target: URL): string[] {
  const token = target.pathname.split('/').filter(Boolean).at(-1) ?? '';
  return [webhookUrl, target.toString(), target.pathname, token]
    .filter((secret) => secret.length >= 8)
    .sort((a, b) => b.length - a.length);
}



