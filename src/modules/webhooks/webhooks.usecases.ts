import type { Logger } from 'pino';
import type { Database } from '../../shared/db/database.ts';
import { newId } from '../../shared/crypto/ids.ts';
import { open, seal } from '../../shared/crypto/seal.ts';
import type { JobQueue } from '../../shared/jobs/jobs.queue.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { PostFailure, postPinned, type HostResolver } from '../../integrations/webhooks/webhooks.http.ts';
import { webhooksErrors } from './webhooks.errors.ts';
import { attemptError } from './webhooks.failures.ts';
import { createWebhooksRepository } from './webhooks.repository.ts';
import type { WebhookEventType } from './webhooks.events.ts';
import { newWebhookSecret, signWebhook } from './webhooks.signing.ts';
import { checkDeliverableUrl, type WebhookUrlPolicy } from './webhooks.urls.ts';

export const WEBHOOK_QUEUE = 'webhook';
/** With doubling delays from WEBHOOK_RETRY_DELAY_SECONDS (30 s), 12 retries span more than 24 hours. */
export const WEBHOOK_RETRIES = 12;
/** An attempt with no complete answer by then failed; the OpenAPI document tells receivers this figure. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How long a claimed attempt holds off other jobs; well over DELIVERY_TIMEOUT_MS. */
const ATTEMPT_LEASE_SECONDS = 30;
/** A job may start a little before its time: the queue's clock (PostgreSQL's, for pg-boss) is not this process's. */
const CLOCK_SLACK_MS = 5_000;
/** When a job whose worker died runs again: after the lease, so the rerun finds the attempt free to take. */
const JOB_EXPIRE_SECONDS = 60;
/** Secrets stored before they were sealed start like this; sealed ones start with the seal's version. */
const CLEAR_PREFIX = 'whsec_';
/** How long a rolled secret keeps signing beside its successor: Stripe's default when an endpoint secret is rolled. */
export const ROLL_OVERLAP_MS = 24 * 3_600_000;

export function createWebhooksUsecases(deps: {
  db: Database;
  jobs: JobQueue;
  clock: () => Date;
  random: RandomBytes;
  policy: WebhookUrlPolicy;
  retryDelaySeconds: number;
  /**
   * SECRET_KEY: each account's signing secret is kept sealed with it (AES-256-GCM, the account id as
   * associated data) like Reddit refresh tokens; without it there is none to give and webhooks are refused (503).
   */
  secretKey: Buffer | null;
  resolveHost: HostResolver;
  log: Pick<Logger, 'info'>;
  /** How long an attempt waits for a complete answer: DELIVERY_TIMEOUT_MS unless a test shortens the wait. */
  timeoutMs?: number;
}) {
  const { db, jobs, clock, random, policy, secretKey, resolveHost, retryDelaySeconds, log } = deps;
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const webhooks = createWebhooksRepository(db);
  const storedSecret = async (accountId: string) => (await webhooks.secretOf(accountId))?.webhook_secret ?? null;
  /** Opens a sealed secret; null when it was sealed with another SECRET_KEY and cannot be recovered. */
  const opened = (sealKey: Buffer, sealed: string, accountId: string) => {
    try {
      return open(sealKey, sealed, accountId);
    } catch {
      return null;
    }
  };

  function requireKey(): Buffer {
    if (!secretKey) throw webhooksErrors.notConfigured();
    return secretKey;
  }

  /**
   * The account's secret, created on first use (two instances racing agree on the first one stored),
   * with the row it was read from: one read gives the secret and what a roll left beside it.
   */
  async function secretAndRow(accountId: string) {
    const sealKey = requireKey();
    const row = await webhooks.secretOf(accountId);
    const current = row?.webhook_secret ?? null;
    if (current?.startsWith(CLEAR_PREFIX)) {
      await webhooks.replaceSecret(accountId, current, seal(sealKey, current, accountId));
      return { secret: current, row };
    }
    // Sealed with another SECRET_KEY, it cannot be recovered, so the account gets a new one.
    const known = current === null ? null : opened(sealKey, current, accountId);
    if (known !== null) return { secret: known, row };
    const fresh = seal(sealKey, newWebhookSecret(random), accountId);
    await (current === null ? webhooks.setSecretIfMissing(accountId, fresh) : webhooks.replaceSecret(accountId, current, fresh));
    return { secret: open(sealKey, (await storedSecret(accountId))!, accountId), row };
  }
  const secretFor = async (accountId: string) => (await secretAndRow(accountId)).secret;

  /** Until when the secret a roll replaced still signs beside the current one; null when it no longer does. */
  const previousUntil = (row: { webhook_secret_previous_until: string | null } | undefined, now: Date) => {
    const until = row?.webhook_secret_previous_until ?? null;
    return until !== null && until > now.toISOString() ? until : null;
  };

  /** What signs a delivery: the current secret, and for a day after a roll the one it replaced. */
  async function signingSecrets(accountId: string, now: Date): Promise<string[]> {
    const { secret, row } = await secretAndRow(accountId);
    const previous = row?.webhook_secret_previous && previousUntil(row, now) ? opened(requireKey(), row.webhook_secret_previous, accountId) : null;
    return previous === null ? [secret] : [secret, previous];
  }

  /**
   * The job runs one attempt. Its own retries only cover a worker that died mid-attempt (the job
   * expires, runs again and finds the lease over); the receiver's failures are retried by deliver.
   */
  const queueAttempt = (deliveryId: string, startAfterSeconds: number) =>
    jobs.send(WEBHOOK_QUEUE, { delivery_id: deliveryId }, {
      retryLimit: 3,
      retryDelaySeconds: JOB_EXPIRE_SECONDS,
      expireSeconds: JOB_EXPIRE_SECONDS,
      startAfterSeconds,
    });

  /**
   * An event given its own `id` (one derived from what it announces) is recorded once however often it
   * is enqueued; each call still queues a job, which finds nothing to do if another already delivered it.
   */
  async function enqueue(event: { id?: string; accountId: string; scrapeId: string | null; url: string; type: WebhookEventType; data: unknown }) {
    const now = clock();
    const id = event.id ?? newId('msg', now, random);
    const payload = JSON.stringify({ type: event.type, timestamp: now.toISOString(), data: event.data });
    await webhooks.insertDelivery({
      id,
      account_id: event.accountId,
      scrape_id: event.scrapeId,
      url: event.url,
      event_type: event.type,
      payload,
      status: 'pending',
      attempts: 0,
      created_at: now.toISOString(),
      delivered_at: null,
      next_attempt_at: null,
    });
    await queueAttempt(id, 0);
    return id;
  }

  /** POSTs the signed payload; a failure is an outcome to record, not an exception. */
  async function attempt(delivery: { id: string; account_id: string; url: string; payload: string }, started: Date) {
    const timestamp = Math.floor(started.getTime() / 1000);
    try {
      // Standard Webhooks: signatures separated by spaces, any one of which verifies.
      const secrets = await signingSecrets(delivery.account_id, started);
      const signature = secrets.map((secret) => signWebhook(secret, delivery.id, timestamp, delivery.payload)).join(' ');
      // Checked again at each attempt (a host name may resolve elsewhere than at submit time), then
      // connected to exactly the checked addresses; a redirect is an answer, not followed.
      const { url, addresses } = await checkDeliverableUrl(delivery.url, policy, resolveHost);
      const statusCode = await postPinned(url, addresses, {
        timeoutMs,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'subpilot-webhooks/1',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature,
        },
        body: delivery.payload,
      });
      return { statusCode, error: statusCode < 200 || statusCode >= 300 ? `receiver answered ${statusCode}` : null };
    } catch (cause) {
      // The account is told how far the POST got; the exact cause (it can tell a closed port from a filtered one) goes to the log only.
      const failure = cause instanceof PostFailure ? { stage: cause.stage, err: cause.cause } : { err: cause };
      log.info({ delivery_id: delivery.id, ...failure }, 'a webhook attempt failed');
      return { statusCode: null, error: attemptError(cause, timeoutMs) };
    }
  }

  return {
    configured: secretKey !== null,
    async assertUrl(url: string) {
      requireKey();
      await checkDeliverableUrl(url, policy, resolveHost);
    },
    secretFor,

    /**
     * A new signing secret, used at once; the one it replaces keeps signing beside it for a day
     * (ROLL_OVERLAP_MS), as Stripe does, so receivers switch without losing a delivery.
     */
    async rollSecret(accountId: string): Promise<void> {
      await secretFor(accountId);
      const current = (await storedSecret(accountId))!;
      const until = new Date(clock().getTime() + ROLL_OVERLAP_MS).toISOString();
      // Of two rolls at once one replaces the secret; the other changes nothing.
      await webhooks.rollSecret(accountId, current, seal(requireKey(), newWebhookSecret(random), accountId), until);
    },

    /** The secret to show, and until when the one a roll replaced still signs beside it (null: no such secret now). */
    async signingState(accountId: string): Promise<{ secret: string; previousUntil: string | null }> {
      const { secret, row } = await secretAndRow(accountId);
      return { secret, previousUntil: previousUntil(row, clock()) };
    },

    /** Seals secrets stored in clear by earlier versions; run at start-up, a no-op without SECRET_KEY. */
    async sealClearSecrets(): Promise<number> {
      if (!secretKey) return 0;
      const rows = await webhooks.findSecretsStartingWith(CLEAR_PREFIX);
      for (const row of rows) await webhooks.replaceSecret(row.id, row.webhook_secret!, seal(secretKey, row.webhook_secret!, row.id));
      return rows.length;
    },

    /** Records the event and queues its delivery; failed attempts are retried with doubling delays for over a day. */
    enqueue,

    /** A signed webhook.test event to `url` (checked like a scrape's webhook_url), delivered and retried like any other. */
    async sendTest(accountId: string, url: string) {
      requireKey();
      await checkDeliverableUrl(url, policy, resolveHost);
      return enqueue({ accountId, scrapeId: null, url, type: 'webhook.test', data: { message: 'A test event sent from the dashboard.' } });
    },

    /** Makes a failed or waiting delivery due now and queues it; one that failed for good gets one more attempt. */
    async retryNow(accountId: string, deliveryId: string) {
      const delivery = await webhooks.findForAccount(accountId, deliveryId);
      if (!delivery) throw webhooksErrors.deliveryNotFound();
      if (!(await webhooks.makeDue(accountId, deliveryId, clock().toISOString()))) throw webhooksErrors.alreadyDelivered();
      await queueAttempt(deliveryId, 0);
    },

    /**
     * One delivery attempt (the job handler). A job that is not due (the schedule moved: "retry now",
     * or another job took it) does nothing. A failed attempt queues the next one itself, before
     * recording, so a crash between the two cannot leave a pending delivery with no job.
     */
    async deliver(deliveryId: string): Promise<void> {
      const delivery = await webhooks.findDelivery(deliveryId);
      const now = clock();
      if (!delivery || delivery.status !== 'pending') return;
      const dueBy = new Date(now.getTime() + CLOCK_SLACK_MS).toISOString();
      if (delivery.next_attempt_at !== null && delivery.next_attempt_at > dueBy) return;
      const leaseUntil = new Date(now.getTime() + ATTEMPT_LEASE_SECONDS * 1000).toISOString();
      if (!(await webhooks.claimAttempt(delivery, leaseUntil))) return;
      const { statusCode, error } = await attempt(delivery, now);
      const lastTry = delivery.attempts + 1 > WEBHOOK_RETRIES;
      const finished = clock();
      const delaySeconds = retryDelaySeconds * 2 ** delivery.attempts;
      // Counted from the attempt's start, not its end: how long a failed connection took (no time when
      // refused, the whole timeout when filtered) must not show in the schedule either.
      const nextAttempt = new Date(now.getTime() + delaySeconds * 1000);
      const retry = error !== null && !lastTry;
      if (retry) await queueAttempt(delivery.id, Math.max(0, Math.ceil((nextAttempt.getTime() - finished.getTime()) / 1000)));
      await webhooks.recordAttempt(
        delivery.id,
        { attempted_at: now.toISOString(), status_code: statusCode, error, duration_ms: finished.getTime() - now.getTime() },
        {
          status: error === null ? 'delivered' : retry ? 'pending' : 'failed',
          delivered_at: error === null ? finished.toISOString() : null,
          next_attempt_at: retry ? nextAttempt.toISOString() : null,
        },
      );
    },

    async recentDeliveries(accountId: string, limit = 50) {
      const deliveries = await webhooks.listDeliveries(accountId, limit);
      const attempts = await webhooks.listAttempts(deliveries.map((d) => d.id));
      return deliveries.map((d) => ({ ...d, attempts: attempts.filter((a) => a.delivery_id === d.id) }));
    },
  };
}

export type WebhooksUsecases = ReturnType<typeof createWebhooksUsecases>;
