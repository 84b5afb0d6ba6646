import type { Database } from '../../shared/db/database.ts';
import { newId } from '../../shared/crypto/ids.ts';
import { open, seal } from '../../shared/crypto/seal.ts';
import type { JobQueue } from '../../shared/jobs/jobs.queue.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { postPinned, type HostResolver } from '../../integrations/webhooks/webhooks.http.ts';
import { webhooksErrors } from './webhooks.errors.ts';
import { createWebhooksRepository } from './webhooks.repository.ts';
import { newWebhookSecret, signWebhook } from './webhooks.signing.ts';
import { checkDeliverableUrl, type WebhookUrlPolicy } from './webhooks.urls.ts';

export const WEBHOOK_QUEUE = 'webhook';
/** With doubling delays from WEBHOOK_RETRY_DELAY_SECONDS (30 s), 12 retries span more than 24 hours. */
export const WEBHOOK_RETRIES = 12;
const DELIVERY_TIMEOUT_MS = 10_000;
/** Secrets stored before they were sealed start like this; sealed ones start with the seal's version. */
const CLEAR_PREFIX = 'whsec_';

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
}) {
  const { db, jobs, clock, random, policy, secretKey, resolveHost } = deps;
  const webhooks = createWebhooksRepository(db);
  const storedSecret = async (accountId: string) => (await webhooks.secretOf(accountId))?.webhook_secret ?? null;

  function requireKey(): Buffer {
    if (!secretKey) throw webhooksErrors.notConfigured();
    return secretKey;
  }

  /** The account's secret, created on first use; two instances racing agree on the first one stored. */
  async function secretFor(accountId: string): Promise<string> {
    const sealKey = requireKey();
    const current = await storedSecret(accountId);
    if (current?.startsWith(CLEAR_PREFIX)) {
      await webhooks.replaceSecret(accountId, current, seal(sealKey, current, accountId));
      return current;
    }
    if (current !== null) {
      try {
        return open(sealKey, current, accountId);
      } catch {
        // Sealed with another SECRET_KEY: it cannot be recovered, so the account gets a new one.
      }
    }
    const fresh = seal(sealKey, newWebhookSecret(random), accountId);
    await (current === null ? webhooks.setSecretIfMissing(accountId, fresh) : webhooks.replaceSecret(accountId, current, fresh));
    return open(sealKey, (await storedSecret(accountId))!, accountId);
  }

  return {
    configured: secretKey !== null,
    async assertUrl(url: string) {
      requireKey();
      await checkDeliverableUrl(url, policy, resolveHost);
    },
    secretFor,

    /** Seals secrets stored in clear by earlier versions; run at start-up, a no-op without SECRET_KEY. */
    async sealClearSecrets(): Promise<number> {
      if (!secretKey) return 0;
      const rows = await webhooks.findSecretsStartingWith(CLEAR_PREFIX);
      for (const row of rows) await webhooks.replaceSecret(row.id, row.webhook_secret!, seal(secretKey, row.webhook_secret!, row.id));
      return rows.length;
    },

    /** Records the event and queues its delivery; the job retries with doubling delays for over a day. */
    async enqueue(event: { accountId: string; scrapeId: string; url: string; type: string; data: unknown }) {
      const now = clock();
      const id = newId('msg', now, random);
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
      });
      await jobs.send(WEBHOOK_QUEUE, { delivery_id: id }, {
        retryLimit: WEBHOOK_RETRIES,
        retryDelaySeconds: deps.retryDelaySeconds,
        expireSeconds: 60,
      });
    },

    /** One delivery attempt (the job handler). Throws on failure so the queue retries later. */
    async deliver(deliveryId: string): Promise<void> {
      const delivery = await webhooks.findDelivery(deliveryId);
      if (!delivery || delivery.status !== 'pending') return;
      const started = clock();
      const timestamp = Math.floor(started.getTime() / 1000);
      let statusCode: number | null = null;
      let error: string | null = null;
      try {
        const signature = signWebhook(await secretFor(delivery.account_id), delivery.id, timestamp, delivery.payload);
        // Checked again at each attempt (a host name may resolve elsewhere than at submit time), then
        // connected to exactly the checked addresses; a redirect is an answer, not followed.
        const { url, addresses } = await checkDeliverableUrl(delivery.url, policy, resolveHost);
        statusCode = await postPinned(url, addresses, {
          timeoutMs: DELIVERY_TIMEOUT_MS,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'subpilot-webhooks/1',
            'webhook-id': delivery.id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signature,
          },
          body: delivery.payload,
        });
        if (statusCode < 200 || statusCode >= 300) error = `receiver answered ${statusCode}`;
      } catch (cause) {
        error = (cause as Error).message ?? 'delivery failed';
      }
      const ok = error === null;
      const lastTry = delivery.attempts + 1 > WEBHOOK_RETRIES;
      const finished = clock();
      await webhooks.recordAttempt(
        delivery.id,
        { attempted_at: started.toISOString(), status_code: statusCode, error, duration_ms: finished.getTime() - started.getTime() },
        { status: ok ? 'delivered' : lastTry ? 'failed' : 'pending', delivered_at: ok ? finished.toISOString() : null },
      );
      if (!ok && !lastTry) throw new Error(`webhook delivery failed: ${error}`);
    },

    async recentDeliveries(accountId: string, limit = 50) {
      const deliveries = await webhooks.listDeliveries(accountId, limit);
      const attempts = await webhooks.listAttempts(deliveries.map((d) => d.id));
      return deliveries.map((d) => ({ ...d, attempts: attempts.filter((a) => a.delivery_id === d.id) }));
    },
  };
}

export type WebhooksUsecases = ReturnType<typeof createWebhooksUsecases>;
