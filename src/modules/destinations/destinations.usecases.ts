import type { Selectable } from 'kysely';
import type { Logger } from 'pino';
import type { ChatKind, ChatOutcome } from '../../integrations/chat/chat.client.ts';
import { idOf, newId } from '../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { open, seal } from '../../shared/crypto/seal.ts';
import type { Database } from '../../shared/db/database.ts';
import type { JobQueue } from '../../shared/jobs/jobs.queue.ts';
import { destinationsErrors } from './destinations.errors.ts';
import { drainDestination } from './destinations.delivery.ts';
import { createDestinationsRepository } from './destinations.repository.ts';
import type { WebhooksUsecases } from '../webhooks/webhooks.usecases.ts';
import type { DestinationKind, DestinationsTable, OutboxAttemptsTable, OutboxTable } from './destinations.tables.ts';
import { CHAT_BASES, urlHint, webhookUrlProblem } from './destinations.urls.ts';

export const DESTINATION_QUEUE = 'destination';
/** Enough for every channel of a team; a limit so that one account cannot fill the outbox's workers. */
export const MAX_DESTINATIONS = 50;
/** A drain job whose worker died runs again after this: the destination's lease is over by then. */
const JOB_EXPIRE_SECONDS = 120;

/** A destination as answers show it: the URL only by its hint. */
const shown = ({ url_hint, ...destination }: { url_hint: string; id: string; kind: DestinationKind; name: string; status: 'active' | 'off'; off_reason: string | null; created_at: string }) => ({
  ...destination,
  url: url_hint,
});

/** A message as answers show it, with its attempts: not its body (it may quote what the owner routed privately). */
const delivery = (row: OutboxTable, attempts: Selectable<OutboxAttemptsTable>[]) => ({
  id: row.id,
  subject: row.subject,
  status: row.status,
  created_at: row.created_at,
  sent_at: row.sent_at,
  receipt: row.receipt,
  error: row.error,
  attempts: attempts.filter((a) => a.outbox_id === row.id).map(({ attempted_at, status_code, answer, error, duration_ms }) => ({ attempted_at, status_code, answer, error, duration_ms })),
});

/** The message a test sends, in each service's own shape, naming the test so that its record can be found. */
const testMessage = (kind: DestinationKind, name: string, test: string, own?: string) => {
  const text = own ? `${own.trim()} (${test})` : `subpilot: a test alert to "${name}" (${test}). New matches of the monitors you route here will arrive like this.`;
  return kind === 'slack' ? { text } : { content: text };
};

export function createDestinationsUsecases(deps: {
  db: Database;
  jobs: JobQueue;
  clock: () => Date;
  random: RandomBytes;
  sleep: (ms: number) => Promise<void>;
  /** SECRET_KEY: webhook URLs are kept sealed with it; without it destinations are refused (503). */
  secretKey: Buffer | null;
  /** Posts one message and says what the channel answered (src/integrations/chat). */
  post: (kind: ChatKind, url: string, message: unknown) => Promise<ChatOutcome>;
  /** The account's signed webhooks: a `destination.off` event when a destination is switched off. */
  webhooks: Pick<WebhooksUsecases, 'enqueue'>;
  /** Where each service's webhooks live (tests: the fakes). */
  bases?: Record<DestinationKind, string[]>;
  log: Pick<Logger, 'info' | 'warn'>;
}) {
  const { db, jobs, clock, random, secretKey } = deps;
  const repo = createDestinationsRepository(db);
  const bases = deps.bases ?? CHAT_BASES;

  const requireKey = () => {
    if (!secretKey) throw destinationsErrors.notConfigured();
    return secretKey;
  };
  const queueDrain = (destinationId: string, startAfterSeconds = 0) =>
    jobs.send(DESTINATION_QUEUE, { destination_id: destinationId }, { retryLimit: 3, retryDelaySeconds: JOB_EXPIRE_SECONDS, expireSeconds: JOB_EXPIRE_SECONDS, startAfterSeconds });

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
    const now = clock();
    const rows = [];
    for (const { subject, message, order } of messages) {
      rows.push(
        await repo.enqueue({
          id: order ? idOf('out', now, `${order}${random(3).toString('hex')}`) : newId('out', now, random),
          destination_id: destinationId,
          subject,
          message: JSON.stringify(message),
          status: 'pending',
          attempts: 0,
          failures: 0,
          next_attempt_at: now.toISOString(),
          created_at: now.toISOString(),
        }),
      );
    }
    await queueDrain(destinationId);
    return rows;
  }

  /**
   * The owner is told on the account's own endpoint, if it has one. The event's id is the
   * destination's (a destination is switched off once), so even a repeated call records one delivery.
   */
  async function announceOff(destination: DestinationsTable, reason: string, offAt: string) {
    const url = await repo.accountWebhook(destination.account_id);
    if (!url) return;
    const data = { destination_id: destination.id, kind: destination.kind, name: destination.name, reason, off_at: offAt };
    await deps.webhooks.enqueue({ id: `msg_${destination.id.slice(4)}`, accountId: destination.account_id, scrapeId: null, url, type: 'destination.off', data });
  }

  return {
    configured: secretKey !== null,

    async create(accountId: string, input: { kind: DestinationKind; name: string; url: string }) {
      const key = requireKey();
      const problem = webhookUrlProblem(input.kind, input.url, bases[input.kind]);
      if (problem) throw destinationsErrors.invalidUrl(problem);
      if ((await repo.list(accountId)).length >= MAX_DESTINATIONS) throw destinationsErrors.limitReached(MAX_DESTINATIONS);
      const now = clock();
      const id = newId('dst', now, random);
      await repo.insert({
        id,
        account_id: accountId,
        kind: input.kind,
        name: input.name.trim(),
        url_sealed: seal(key, input.url, accountId),
        url_hint: urlHint(input.url),
        status: 'active',
        off_reason: null,
        next_send_at: now.toISOString(),
        draining_until: null,
        created_at: now.toISOString(),
      });
      return owned(accountId, id);
    },

    list: async (accountId: string) => ({ data: (await repo.list(accountId)).map(shown) }),
    get: owned,

    async remove(accountId: string, id: string) {
      if (!(await repo.remove(accountId, id))) throw destinationsErrors.notFound();
    },

    /** A test message through the outbox, paced and recorded like any other. */
    async sendTest(accountId: string, id: string, text?: string) {
      requireKey();
      const destination = await owned(accountId, id);
      if (destination.status === 'off') throw destinationsErrors.off(destination.off_reason ?? 'switched off');
      const test = newId('tst', clock(), random);
      const [row] = await enqueueMany(id, [{ subject: `test:${test}`, message: testMessage(destination.kind, destination.name, test, text) }]);
      return delivery(row!, []);
    },

    enqueueMany,

    /** The newest messages of a destination with every attempt, newest first. */
    async deliveries(accountId: string, id: string, limit = 20) {
      await owned(accountId, id);
      const rows = await repo.recentMessages(id, limit);
      const attempts = await repo.attemptsOf(rows.map((row) => row.id));
      return { data: rows.map((row) => delivery(row, attempts)) };
    },

    /** The job handler: sends what the destination has pending, in order, at its pace (destinations.delivery.ts). */
    drain: (destinationId: string) =>
      drainDestination(destinationId, {
        repo,
        clock,
        sleep: deps.sleep,
        post: deps.post,
        openUrl: (destination) => open(requireKey(), destination.url_sealed, destination.account_id),
        requeue: queueDrain,
        announceOff,
        log: deps.log,
      }),
  };
}

export type DestinationsUsecases = ReturnType<typeof createDestinationsUsecases>;
