import type { Logger } from 'pino';
import type { ChatOutcome } from '../../integrations/chat/chat.types.ts';
import type { MailMessage } from '../../integrations/mail/mail.client.ts';
import { idOf, newId } from '../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { open, seal } from '../../shared/crypto/seal.ts';
import type { Database } from '../../shared/db/database.ts';
import type { JobQueue } from '../../shared/jobs/jobs.queue.ts';
import { destinationsErrors } from './destinations.errors.ts';
import { drainDestination, PACE_MS } from './destinations.delivery.ts';
import { createDestinationsRepository } from './destinations.repository.ts';
import { createRecipientUsecases } from './destinations.recipients.usecases.ts';
import { CONFIRMATION, type Send } from './destinations.senders.ts';
import { destinationOf, tokenFor } from './destinations.tokens.ts';
import type { WebhooksUsecases } from '../webhooks/webhooks.usecases.ts';
import type { DestinationKind, DestinationStatus, DestinationsTable, WebhookKind } from './destinations.tables.ts';
import { CHAT_BASES, urlHint, webhookUrlProblem } from './destinations.urls.ts';
import { switchedOffMail } from './destinations.mail.ts';
import { delivery, testMessage } from './destinations.view.ts';

export const DESTINATION_QUEUE = 'destination';
/** Mails telling an owner that a destination was switched off. */
export const OWNER_MAIL_QUEUE = 'destination-off-mail';
/** Enough for every channel of a team; a limit so that one account cannot fill the outbox's workers. */
export const MAX_DESTINATIONS = 50;
/** A drain job whose worker died runs again after this: the destination's lease is over by then. */
const JOB_EXPIRE_SECONDS = 120;
/** How long the link that confirms an address or links a chat works. */
const CONFIRM_DAYS = 7;

type Row = { url_hint: string; id: string; kind: DestinationKind; name: string; status: DestinationStatus; off_reason: string | null; created_at: string; confirm_expires_at: string | null };

export type DestinationInput = { kind: DestinationKind; name: string; url?: string; address?: string };

export function createDestinationsUsecases(deps: {
  db: Database;
  jobs: JobQueue;
  clock: () => Date;
  random: RandomBytes;
  sleep: (ms: number) => Promise<void>;
  /** SECRET_KEY: webhook URLs are kept sealed with it; without it destinations are refused (503). */
  secretKey: Buffer | null;
  /** Sends one message by the destination's kind and says what the channel answered (destinations.senders.ts). */
  send: Send;
  /** The time between two messages to one destination, per kind (DESTINATION_PACE_MS). */
  paceMs?: Record<DestinationKind, number>;
  /** Whether email can be sent here (SMTP_URL, MAIL_FROM and PUBLIC_URL set): without it email destinations are refused (503). */
  mail: boolean;
  /** Mail to an account's own address (SMTP and PUBLIC_URL set): a switch-off is told there too. */
  ownerMail?: { send(to: string, mail: MailMessage): Promise<ChatOutcome>; publicUrl: string } | null;
  /** The operator's Telegram bot, whose deep link links a chat; null without TELEGRAM_BOT_TOKEN (503). */
  telegram: { username(): Promise<string> } | null;
  /** The account's signed webhooks: a `destination.off` event when a destination is switched off. */
  webhooks: Pick<WebhooksUsecases, 'enqueue'>;
  /** Where each service's webhooks live (tests: the fakes). */
  bases?: Record<WebhookKind, string[]>;
  log: Pick<Logger, 'info' | 'warn'>;
}) {
  const { db, jobs, clock, random, secretKey } = deps;
  const repo = createDestinationsRepository(db);
  const bases = deps.bases ?? CHAT_BASES;

  const requireKey = () => {
    if (!secretKey) throw destinationsErrors.notConfigured();
    return secretKey;
  };
  /**
   * Where the messages of a new destination go, checked for its kind: the webhook URL, the address,
   * nothing yet (a chat). The body's own faults come first (422), then what the server lacks (503).
   */
  function targetOf(input: DestinationInput): string {
    const webhook = input.kind === 'slack' || input.kind === 'discord';
    const takes = webhook ? 'url' : input.kind === 'email' ? 'address' : null;
    for (const field of ['url', 'address'] as const) {
      if (field !== takes && input[field] !== undefined) throw destinationsErrors.invalidTarget(input.kind, field);
    }
    if (takes && input[takes] === undefined) throw destinationsErrors.invalidTarget(input.kind, takes);
    if (input.kind === 'email' && !deps.mail) throw destinationsErrors.channelNotConfigured('Email', 'SMTP_URL, MAIL_FROM and PUBLIC_URL');
    if (input.kind === 'telegram' && !deps.telegram) throw destinationsErrors.channelNotConfigured('Telegram', 'TELEGRAM_BOT_TOKEN');
    if (!webhook) return input.kind === 'email' ? input.address!.trim() : '';
    const problem = webhookUrlProblem(input.kind as WebhookKind, input.url!, bases[input.kind as WebhookKind]);
    if (problem) throw destinationsErrors.invalidUrl(problem);
    return input.url!;
  }

  /** The deep link of a chat still to link; null while Telegram does not tell the bot's name (a read of the list must not fail for it). */
  async function linkOf(key: Buffer, id: string) {
    const bot = await deps.telegram!.username().catch(() => null);
    return bot ? `https://t.me/${bot}?start=${tokenFor(key, 'link', id)}` : null;
  }

  /**
   * A destination as answers show it: a webhook only by the end of its URL, an address whole, a chat
   * by its name; while a chat is not linked, the link that links it (signed, so it can be shown again).
   */
  async function shown({ url_hint, confirm_expires_at, ...destination }: Row) {
    const linking = destination.kind === 'telegram' && destination.status === 'unconfirmed' && secretKey && deps.telegram;
    const expired = confirm_expires_at !== null && Date.parse(confirm_expires_at) <= clock().getTime();
    return {
      ...destination,
      url: destination.kind === 'slack' || destination.kind === 'discord' ? url_hint : null,
      address: destination.kind === 'email' ? url_hint : null,
      chat: destination.kind === 'telegram' && url_hint ? url_hint : null,
      link: linking && !expired ? await linkOf(secretKey, destination.id) : null,
      confirm_by: confirm_expires_at,
    };
  }

  const queueDrain = (destinationId: string, startAfterSeconds = 0) =>
    jobs.send(DESTINATION_QUEUE, { destination_id: destinationId }, { retryLimit: 3, retryDelaySeconds: JOB_EXPIRE_SECONDS, expireSeconds: JOB_EXPIRE_SECONDS, startAfterSeconds });

  /** Sends what the destination has pending, in order, at its pace (destinations.delivery.ts). */
  const drain = (destinationId: string) =>
    drainDestination(destinationId, {
      repo,
      clock,
      sleep: deps.sleep,
      send: deps.send,
      paceMs: deps.paceMs ?? PACE_MS,
      openUrl: (destination) => open(requireKey(), destination.url_sealed, destination.account_id),
      requeue: queueDrain,
      announceOff,
      log: deps.log,
    });
  /** The drains this process runs in the background (`wake`). */
  const running = new Set<Promise<void>>();
  function wake(destinationId: string) {
    const run: Promise<void> = drain(destinationId)
      .catch((error) => deps.log.warn({ destination_id: destinationId, err: (error as Error).message }, 'a drain failed; the sweep starts it again'))
      .finally(() => running.delete(run));
    running.add(run);
  }

  async function owned(accountId: string, id: string) {
    const destination = await repo.find(accountId, id);
    if (!destination) throw destinationsErrors.notFound();
    return shown(destination);
  }

  /**
   * Records messages for a destination (once per subject) and wakes its drainer. They leave in the
   * order of their ids: `order`, when given (10 hex digits), is the start of an id's random part (alerts.usecases.ts
   * puts a match's storage order there), so messages recorded in the same millisecond keep their order.
   */
  async function enqueueMany(destinationId: string, messages: { subject: string; message: unknown; order?: string }[]) {
    const now = clock().toISOString();
    const at = new Date(now);
    const rows = messages.map(({ subject, message, order }) => ({
      id: order ? idOf('out', at, `${order}${random(3).toString('hex')}`) : newId('out', at, random),
      destination_id: destinationId,
      subject,
      message: JSON.stringify(message),
      status: 'pending' as const,
      attempts: 0,
      failures: 0,
      next_attempt_at: now,
      created_at: now,
    }));
    // One statement for the lot: a pass records hundreds of messages, and each commit is a disk flush.
    await repo.enqueueAll(destinationId, rows);
    // A drainer holding the destination sends these too: it looks for new messages again after it lets go
    // (destinations.delivery.ts), and a dead one's are found by the sweep. A job per pass would only pile up.
    if (!(await repo.held(destinationId, now))) await queueDrain(destinationId);
  }

  /**
   * The owner is told on the account's own endpoint, if it has one. The event's id is the
   * destination's (a destination is switched off once), so even a repeated call records one delivery.
   */
  async function announceOff(destination: DestinationsTable, reason: string, offAt: string) {
    // By mail too where the server sends mail: most owners have no endpoint of their own. A job, so it is retried.
    if (deps.ownerMail) await jobs.send(OWNER_MAIL_QUEUE, { destination_id: destination.id }, { retryLimit: 5, retryDelaySeconds: 60, expireSeconds: JOB_EXPIRE_SECONDS });
    const url = await repo.accountWebhook(destination.account_id);
    if (!url) return;
    const data = { destination_id: destination.id, kind: destination.kind, name: destination.name, reason, off_at: offAt };
    await deps.webhooks.enqueue({ id: `msg_${destination.id.slice(4)}`, accountId: destination.account_id, scrapeId: null, url, type: 'destination.off', data });
  }

  return {
    configured: secretKey !== null,
    /** Which kinds that need the server's own channel it has (SMTP for email, the bot for Telegram), so a page offers only those. */
    channels: { email: deps.mail, telegram: deps.telegram !== null },

    /** A webhook is active at once; an address waits for its link to be followed, a Telegram chat for the bot's code. */
    async create(accountId: string, input: DestinationInput) {
      const target = targetOf(input);
      const key = requireKey();
      if ((await repo.list(accountId)).length >= MAX_DESTINATIONS) throw destinationsErrors.limitReached(MAX_DESTINATIONS);
      const now = clock();
      const id = newId('dst', now, random);
      const confirms = input.kind === 'email' || input.kind === 'telegram';
      await repo.insert({
        id,
        account_id: accountId,
        kind: input.kind,
        name: input.name.trim(),
        url_sealed: target === '' ? '' : seal(key, target, accountId),
        url_hint: input.kind === 'email' ? target : input.kind === 'telegram' ? '' : urlHint(target),
        status: confirms ? 'unconfirmed' : 'active',
        off_reason: null,
        next_send_at: now.toISOString(),
        draining_until: null,
        created_at: now.toISOString(),
        confirm_expires_at: confirms ? new Date(now.getTime() + CONFIRM_DAYS * 86_400_000).toISOString() : null,
      });
      if (input.kind === 'email') await enqueueMany(id, [{ subject: `confirm:${id}`, message: CONFIRMATION }]);
      return owned(accountId, id);
    },

    /** A new name; for a webhook, a new URL, which makes it active again (the way back from a switch-off). */
    async update(accountId: string, id: string, input: { name?: string; url?: string }) {
      const destination = await repo.find(accountId, id);
      if (!destination) throw destinationsErrors.notFound();
      if (input.url !== undefined) {
        if (destination.kind !== 'slack' && destination.kind !== 'discord') throw destinationsErrors.invalidTarget(destination.kind, 'url');
        const problem = webhookUrlProblem(destination.kind, input.url, bases[destination.kind]);
        if (problem) throw destinationsErrors.invalidUrl(problem);
        await repo.replaceUrl(accountId, id, { url_sealed: seal(requireKey(), input.url, accountId), url_hint: urlHint(input.url) });
      }
      if (input.name !== undefined) await repo.rename(accountId, id, input.name.trim());
      return owned(accountId, id);
    },

    ...createRecipientUsecases({ repo, clock, requireKey, enqueueMany, announceOff }),

    /**
     * The job that tells the owner by mail that a destination was switched off. Its Message-ID is the
     * destination's, so a mail sent again after a crash is the same mail; a failure worth another try
     * throws, and the job queue tries again.
     */
    async mailOwnerOff(destinationId: string) {
      const destination = await repo.forDrain(destinationId);
      const owner = destination?.status === 'off' ? await repo.accountEmail(destination.account_id) : null;
      if (!deps.ownerMail || !destination || !owner) return;
      const { send, publicUrl } = deps.ownerMail;
      const mail = switchedOffMail(destination.name, destination.off_reason ?? 'switched off', `${publicUrl}/dashboard/destinations/${destination.id}`);
      const outcome = await send(owner, { ...mail, messageId: `<off-${destination.id}@${new URL(publicUrl).hostname}>` });
      if (outcome.outcome === 'failed' && outcome.retryable) throw new Error(`telling the owner failed: ${outcome.error}`);
    },

    list: async (accountId: string) => ({ data: await Promise.all((await repo.list(accountId)).map(shown)) }),
    get: owned,

    async remove(accountId: string, id: string) {
      if (!(await repo.remove(accountId, id))) throw destinationsErrors.notFound();
    },

    /** A test message through the outbox, paced and recorded like any other. */
    async sendTest(accountId: string, id: string, text?: string) {
      requireKey();
      const destination = await owned(accountId, id);
      if (destination.status === 'off') throw destinationsErrors.off(destination.off_reason ?? 'switched off');
      if (destination.status === 'unconfirmed') throw destinationsErrors.unconfirmed(destination.kind);
      const test = newId('tst', clock(), random);
      const subject = `test:${test}`;
      await enqueueMany(id, [{ subject, message: testMessage(destination.kind, destination.name, test, text) }]);
      return delivery((await repo.message(id, subject))!, []);
    },

    enqueueMany,

    /** The newest messages of a destination with every attempt, newest first. */
    async deliveries(accountId: string, id: string, limit = 20) {
      await owned(accountId, id);
      const rows = await repo.recentMessages(id, limit);
      const attempts = await repo.attemptsOf(rows.map((row) => row.id));
      return { data: rows.map((row) => delivery(row, attempts)) };
    },

    drain,

    /**
     * The job handler: starts the destination's drain and returns. A drain spends most of its time waiting
     * out its pace, so it holds no job slot meanwhile: two hundred destinations drain side by side on a
     * worker of four slots. Its lease, not the job, keeps it the destination's only drainer; should this
     * process die, `recoverStalled` starts it again once the lease is over.
     */
    wake,

    /** The worker's sweep (every few seconds): a drain for each destination with a message due and no drainer, as after a crash. */
    async recoverStalled() {
      for (const { id } of await repo.stalled(clock().toISOString())) wake(id);
    },

    /** Waits for the drains this process started (before the database closes). */
    settle: async () => void (await Promise.allSettled([...running])),
  };
}

export type DestinationsUsecases = ReturnType<typeof createDestinationsUsecases>;
