import type { Logger } from 'pino';
import type { DestinationsUsecases } from '../destinations.usecases.ts';

/** An update as the bot client gives it (src/integrations/chat/telegram.ts). */
export interface BotUpdate {
  update_id: number;
  chatId: string;
  chatName: string;
  text: string | null;
}

export interface LinkingBot {
  getUpdates(offset: number | undefined, timeoutSeconds: number): Promise<BotUpdate[]>;
  /** A direct answer in a chat that has no destination (a stale code): not through the outbox, which is per destination. */
  reply(chatId: string, text: string): Promise<unknown>;
  startPayload(text: string | null): string | null;
}

/** How long one getUpdates call waits for news (Telegram's long polling; core.telegram.org/bots/api#getupdates). */
const LONG_POLL_SECONDS = 25;
/** After a failed call (Telegram away, 409 another poller, 429): wait this long, or as told. */
const RETRY_MS = 30_000;

const ANSWERS = {
  expired: 'This link has expired. On the subpilot dashboard, delete the Telegram destination and add it again for a new link.',
  invalid: 'This link does not link anything: it may be incomplete, or its destination was deleted. Add a Telegram destination on the subpilot dashboard for a new link.',
  already: 'This destination is already linked. Alerts arrive in the chat it was linked from.',
  hello: 'This bot sends subpilot alerts. To receive them here, add a Telegram destination on the subpilot dashboard and open its link.',
} as const;

/**
 * The operator's bot learns the chats to link: a person opens `t.me/<bot>?start=<code>` and presses
 * Start, Telegram delivers `/start <code>` to the bot (core.telegram.org/bots/features#deep-linking),
 * and that chat becomes the destination. Updates are read by long polling, so no public address is
 * needed; one worker polls at a time, as Telegram answers 409 to a second (the loop then waits).
 */
export function createTelegramLinking(deps: {
  bot: LinkingBot;
  destinations: Pick<DestinationsUsecases, 'linkChat'>;
  sleep: (ms: number) => Promise<void>;
  log: Pick<Logger, 'info' | 'warn'>;
}) {
  const { bot, destinations } = deps;
  /** The next update to read: each is handled once (Telegram forgets what an offset confirms). */
  let offset: number | undefined;

  /** Reads what the bot was sent, links the chats whose codes are good, answers the rest. */
  async function pollOnce(timeoutSeconds = LONG_POLL_SECONDS): Promise<number> {
    const updates = await bot.getUpdates(offset, timeoutSeconds);
    for (const update of updates) {
      const code = bot.startPayload(update.text);
      if (code) {
        const outcome = await destinations.linkChat(code, { id: update.chatId, name: update.chatName });
        if (outcome !== 'linked') await bot.reply(update.chatId, ANSWERS[outcome]).catch(() => undefined);
      } else if (update.text?.startsWith('/start')) {
        await bot.reply(update.chatId, ANSWERS.hello).catch(() => undefined);
      }
      offset = update.update_id + 1;
    }
    return updates.length;
  }

  /** The worker's loop; the returned function stops it after the call in flight. */
  function start(): () => void {
    let running = true;
    void (async () => {
      while (running) {
        try {
          await pollOnce();
        } catch (error) {
          const wait = (error as { retryAfterMs?: number }).retryAfterMs ?? RETRY_MS;
          deps.log.warn({ err: (error as Error).message }, `reading the Telegram bot's updates failed; tried again in ${Math.round(wait / 1000)} s`);
          if (running) await deps.sleep(wait);
        }
      }
    })();
    return () => {
      running = false;
    };
  }

  return { pollOnce, start };
}
