/**
 * The channels alerts go out on besides webhooks (issue 43): email over SMTP, the operator's Telegram
 * bot, and each channel's pace. Read once at start-up with the rest of the configuration (config.ts),
 * so a bad value stops the start with one line naming the variable; no value is ever repeated in one
 * (an SMTP URL holds a password, a bot token is the bot).
 */
export type ChannelKind = 'slack' | 'discord' | 'telegram' | 'email';

export interface ChannelsConfig {
  /** SMTP_URL and MAIL_FROM; null when either is unset (email destinations answer 503). */
  mail: { smtpUrl: string; from: string } | null;
  /** TELEGRAM_BOT_TOKEN, and TELEGRAM_API_URL (tests: the fake); null without a token (Telegram destinations answer 503). */
  telegram: { token: string; apiUrl: string } | null;
  /** DESTINATION_PACE_MS: the time between two messages to one destination, per kind; unnamed kinds keep their default. */
  paceMs: Partial<Record<ChannelKind, number>>;
}

type Env = Record<string, string | undefined>;
type Fail = (message: string) => never;

const KINDS: ChannelKind[] = ['slack', 'discord', 'telegram', 'email'];

/** `slack=1000,telegram=3000`: whole milliseconds from 100 to an hour. */
function paces(raw: string | undefined, fail: Fail): ChannelsConfig['paceMs'] {
  if (!raw) return {};
  const entries = raw.split(',').map((part) => part.trim().split('='));
  const paceMs: ChannelsConfig['paceMs'] = {};
  for (const [kind, ms] of entries) {
    if (!KINDS.includes(kind as ChannelKind) || !/^\d+$/.test(ms ?? '') || Number(ms) < 100 || Number(ms) > 3_600_000) {
      fail(`DESTINATION_PACE_MS must be kind=milliseconds pairs, e.g. slack=1000,telegram=3000, with kinds from ${KINDS.join(', ')} and 100 to 3600000 ms; got "${raw}"`);
    }
    paceMs[kind as ChannelKind] = Number(ms);
  }
  return paceMs;
}

export function channelsConfig(env: Env, url: (name: string, fallback: string) => string, fail: Fail): ChannelsConfig {
  const smtpUrl = env.SMTP_URL || '';
  const from = env.MAIL_FROM || '';
  if (smtpUrl && !/^smtps?:\/\/\S+$/.test(smtpUrl)) fail('SMTP_URL must start with smtp:// or smtps:// (the value is not shown)');
  if (smtpUrl && !from) fail('MAIL_FROM must be set when SMTP_URL is set: the address alerts come from, e.g. "subpilot alerts <alerts@example.com>"');
  if (from && !smtpUrl) fail('SMTP_URL must be set when MAIL_FROM is set');
  if (from && !/@[^\s@>]+\.[^\s@>]+>?$/.test(from)) fail(`MAIL_FROM must be an address, or a name and <address>; got "${from}"`);
  const token = env.TELEGRAM_BOT_TOKEN || '';
  // BotFather's tokens: the bot's id, a colon, 35 characters (core.telegram.org/bots/api#authorizing-your-bot).
  if (token && !/^\d+:[A-Za-z0-9_-]{30,}$/.test(token)) fail('TELEGRAM_BOT_TOKEN must be the token BotFather gave, <digits>:<letters> (the value is not shown)');
  return {
    mail: smtpUrl ? { smtpUrl, from } : null,
    telegram: token ? { token, apiUrl: url('TELEGRAM_API_URL', 'https://api.telegram.org') } : null,
    paceMs: paces(env.DESTINATION_PACE_MS, fail),
  };
}
