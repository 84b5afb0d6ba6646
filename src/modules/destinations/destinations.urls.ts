import type { WebhookKind } from './destinations.tables.ts';

/**
 * Where each service's webhooks live. Slack's incoming webhooks are `https://hooks.slack.com/services/
 * T…/B…/<secret>` (api.slack.com/messaging/webhooks); Discord's `https://discord.com/api/webhooks/<id>/
 * <token>` (discord.com/developers/docs/resources/webhook#execute-webhook), also under its older
 * discordapp.com and its ptb and canary hosts. Only these: a destination must be the service's own, not
 * any address that would receive a message (and its owner's secrets). Tests point them at fakes.
 */
export const CHAT_BASES: Record<WebhookKind, string[]> = {
  slack: ['https://hooks.slack.com'],
  discord: ['https://discord.com', 'https://discordapp.com', 'https://ptb.discord.com', 'https://canary.discord.com'],
};

const PATHS: Record<WebhookKind, { path: RegExp; rule: string }> = {
  slack: { path: /^\/services\/[A-Z0-9]+\/[A-Z0-9]+\/[A-Za-z0-9]+$/, rule: 'must be a Slack incoming-webhook URL, https://hooks.slack.com/services/T…/B…/…' },
  discord: { path: /^\/api\/webhooks\/[0-9]+\/[A-Za-z0-9_-]+$/, rule: 'must be a Discord webhook URL, https://discord.com/api/webhooks/<id>/<token>' },
};

/** The words of the refusal when `url` is not a webhook of `kind` under `bases`; null when it is one. */
export function webhookUrlProblem(kind: WebhookKind, url: string, bases: string[]): string | null {
  const base = bases.find((b) => url.startsWith(`${b}/`));
  if (!base) return PATHS[kind].rule;
  const rest = url.slice(base.length);
  return PATHS[kind].path.test(rest) ? null : PATHS[kind].rule;
}

/** What an answer shows of a webhook URL: its last four characters, enough to tell two apart. */
export const urlHint = (url: string) => `…/${url.slice(-4)}`;
