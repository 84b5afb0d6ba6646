import type { Database } from '../../shared/db/database.ts';
import { newId } from '../../shared/crypto/ids.ts';
import type { JobQueue } from '../../shared/jobs/jobs.queue.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { postPinned } from './webhooks.http.ts';
import { createWebhooksRepository } from './webhooks.repository.ts';
import { createWebhookSecrets } from './webhooks.secrets.ts';
import { signWebhook } from './webhooks.signing.ts';
import { checkDeliverableUrl, type HostResolver, type WebhookUrlPolicy } from './webhooks.urls.ts';

export const WEBHOOK_QUEUE = 'webhook';
/** With doubling delays from WEBHOOK_RETRY_DELAY_SECONDS (30 s), 12 retries span more than 24 hours. */
export const WEBHOOK_RETRIES = 12;
const DELIVERY_TIMEOUT_MS = 10_000;

export function createWebhooksUsecases(deps: {
  db: Database;
  jobs: JobQueue;
  clock: () => Date;
  random: RandomBytes;
  policy: WebhookUrlPolicy;
  retryDelaySeconds: number;
  /** SECRET_KEY: seals the signing secrets; without it webhooks are refused (503). */
  secretKey: Buffer | null;
  resolveHost: HostResolver;
}) {
  const { db, jobs, clock, random, policy, resolveHost } = deps;
  const webhooks = createWebhooksRepository(db);
  const secrets = createWebhookSecrets({ db, key: deps.secretKey, random });

  return {
    configured: secrets.configured,
    async assertUrl(url: string) {
      secrets.requireKey();
      await checkDeliverableUrl(url, policy, resolveHost);
    },
    secretFor: secrets.secretFor,
    sealClearSecrets: secrets.sealClearSecrets,

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
        const signature = signWebhook(await secrets.secretFor(delivery.account_id), delivery.id, timestamp, delivery.payload);
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
