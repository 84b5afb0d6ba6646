/**
 * What a Slack incoming webhook's answer means. Slack answers with a status and a bare word as the
 * body (text/plain), not JSON.
 *
 * - 200 `ok`: posted. Slack gives no message id, so there is no receipt (messageId null).
 * - Gone, switch the destination off:
 *   - 404 (any body): `channel_not_found` ("the channel associated with your request does not exist",
 *     api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks) and `no_service`, what a
 *     removed or disabled webhook answers (seen: slackapi/slack-github-action#249; "A 404 indicates
 *     that the webhook URL doesn't exist" for a webhook disabled with its creator, ansible/ansible#53689;
 *     the same 404 for an integration created then disabled, ansible/ansible-modules-extras#100).
 *   - 410 (any body): `channel_is_archived`, "the channel has been archived and doesn't accept further
 *     messages, even from your incoming webhook" (the 2016 changelog above).
 *   - `invalid_token` with any 4xx: a revoked webhook. Seen as 403 (ArthurGuy/BBMembershipSystem#291,
 *     gueils/whales#38) and as 400 "when a webhook is revoked or its workspace/channel is gone"
 *     (trufflesecurity/trufflehog#5177, which treats it as not live).
 * - Not gone, not retried: 403 `action_prohibited` ("the team associated with your request has some kind
 *   of restriction on the webhook posting in this context", the 2016 changelog): an admin's setting
 *   that can be lifted, so the destination stays on and the attempt records why. Likewise 400
 *   `invalid_payload`, `user_not_found`, `no_text`: our message, not the destination, is wrong.
 * - 429: wait `Retry-After` seconds (api.slack.com/docs/rate-limits: posting messages about 1 per
 *   second, short bursts allowed); without the header, 1 s, that pace.
 * - 5xx (`rollup_error`, "likely not your fault at all", the 2016 changelog): retry later.
 */
import type { ChatAnswer, ChatOutcome } from './chat.types.ts';

const GONE_WORDS: Record<string, string> = {
  no_service: 'Slack says the webhook was removed or disabled (no_service)',
  channel_not_found: "Slack says the webhook's channel no longer exists (channel_not_found)",
  channel_is_archived: 'Slack says the channel was archived (channel_is_archived)',
  invalid_token: 'Slack says the webhook was revoked (invalid_token)',
};

const DEFAULT_WAIT_MS = 1000;

export function classifySlack({ status, body, answer, retryAfter }: ChatAnswer): ChatOutcome {
  const word = body.trim();
  if (status >= 200 && status < 300) return { outcome: 'sent', status, answer, messageId: null };
  if (status === 429) return { outcome: 'rate_limited', status, answer, retryAfterMs: slackWaitMs(retryAfter) };
  if (status >= 500) return { outcome: 'failed', status, answer, retryable: true, error: `Slack answered ${status}${said(word)}` };
  const gone = GONE_WORDS[word];
  if (gone && status >= 400) return { outcome: 'gone', status, answer, reason: gone };
  if (status === 404) return { outcome: 'gone', status, answer, reason: 'Slack answered 404: the webhook does not exist' };
  if (status === 410) return { outcome: 'gone', status, answer, reason: 'Slack answered 410: the webhook is gone' };
  return { outcome: 'failed', status, answer, retryable: false, error: `Slack refused the message: ${status}${said(word)}` };
}

/** `Retry-After` is delta-seconds (RFC 9110 §10.2.3; Slack sends whole seconds). */
function slackWaitMs(header: string | null): number {
  const value = header === null ? NaN : Number(header.trim());
  return Number.isFinite(value) && value >= 0 && header!.trim() !== '' ? Math.ceil(value * 1000) : DEFAULT_WAIT_MS;
}

/** The body's word in an error, short: " no_text". */
const said = (word: string) => (word ? ` ${word.length > 100 ? `${word.slice(0, 100)}…` : word}` : '');
