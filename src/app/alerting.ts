import type { Logger } from 'pino';
import { createTelegramBot } from '../integrations/chat/telegram.ts';
import { createMailer } from '../integrations/mail/mail.client.ts';
import type { Config } from '../shared/config/config.ts';
import type { RandomBytes } from '../shared/crypto/random.ts';
import type { Database } from '../shared/db/database.ts';
import type { JobQueue } from '../shared/jobs/jobs.queue.ts';
import { createAlertsUsecases } from '../modules/destinations/alerts/alerts.usecases.ts';
import { CHAT_TIMEOUT_MS, MAX_RETRY_AFTER_MS, PACE_MS, TELEGRAM_BOT_GAP_MS } from '../modules/destinations/destinations.delivery.ts';
import { createSender } from '../modules/destinations/destinations.senders.ts';
import type { WebhookKind } from '../modules/destinations/destinations.tables.ts';
import { createDestinationsUsecases } from '../modules/destinations/destinations.usecases.ts';
import { createTelegramLinking } from '../modules/destinations/telegram/telegram.usecases.ts';
import type { WebhooksUsecases } from '../modules/webhooks/webhooks.usecases.ts';

export interface AlertingOverrides {
  /** Where Slack's and Discord's webhooks live, and how long a post waits for them (tests: the fakes). */
  chat?: { bases: Record<WebhookKind, string[]>; timeoutMs?: number };
}

/**
 * Alert destinations and their channels (issue 43): Slack and Discord webhooks, the operator's Telegram
 * bot, SMTP; the outbox that sends to them; the routes from monitors; the bot's linking of chats.
 */
export function createAlerting(
  config: Config,
  overrides: AlertingOverrides,
  base: { db: Database; jobs: JobQueue; clock: () => Date; random: RandomBytes; log: Logger; sleep: (ms: number) => Promise<void>; webhooks: WebhooksUsecases },
) {
  const timeoutMs = overrides.chat?.timeoutMs ?? CHAT_TIMEOUT_MS;
  const { telegram: botConfig, mail: mailConfig, paceMs } = config.channels;
  const botPace = { gapMs: TELEGRAM_BOT_GAP_MS, now: () => base.clock().getTime(), sleep: base.sleep };
  const bot = botConfig && createTelegramBot({ baseUrl: botConfig.apiUrl, token: botConfig.token, timeoutMs, maxRetryAfterMs: MAX_RETRY_AFTER_MS, botPace });
  const mailer = mailConfig && createMailer({ smtpUrl: mailConfig.smtpUrl, from: mailConfig.from, timeoutMs });
  const mail = mailer !== null && config.publicUrl !== null;
  /** The bot's name for its deep links, asked of Telegram once (getMe) and kept. */
  let username: Promise<string> | null = null;
  const telegram = bot && {
    username: () => {
      username ??= bot.getMe().then((me) => me.username, (error) => ((username = null), Promise.reject(error)));
      return username;
    },
  };
  const destinations = createDestinationsUsecases({
    ...base,
    secretKey: config.secretKey,
    bases: overrides.chat?.bases,
    paceMs: { ...PACE_MS, ...paceMs },
    mail,
    ownerMail: mail ? { send: mailer.send, publicUrl: config.publicUrl! } : null,
    telegram,
    send: createSender({ chat: { timeoutMs, maxRetryAfterMs: MAX_RETRY_AFTER_MS }, telegram: bot, mail: mail ? mailer : null, publicUrl: config.publicUrl, secretKey: config.secretKey }),
  });
  const alerts = createAlertsUsecases({ db: base.db, clock: base.clock, links: { publicUrl: config.publicUrl }, outbox: destinations });
  const linking =
    bot &&
    createTelegramLinking({
      bot: { getUpdates: bot.getUpdates, reply: (chatId, text) => bot.sendMessage(chatId, { text }), startPayload: bot.startPayload },
      destinations,
      sleep: base.sleep,
      log: base.log,
    });
  return { destinations, alerts, linking, mailer, close: () => mailer?.close() };
}
