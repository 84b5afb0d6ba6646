/**
 * Webhook delivery of the fake Stripe: signed exactly as Stripe signs (stripe-node's own
 * `webhooks.generateTestHeaderString`, i.e. `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`), with
 * the pretty-printed JSON body Stripe sends, so a receiver that re-serializes the body fails as it
 * would in production.
 */
import Stripe from 'stripe';
import type { StripeEvent } from './fake-stripe-objects.ts';

export interface DeliverOptions {
  /** Sign with this secret instead of `webhookSecret` (a receiver with the wrong secret, or an attacker). */
  secret?: string;
  /** Unix seconds to sign with; 10 minutes ago is past stripe-node's 300 s tolerance. */
  timestamp?: number;
  /** Send no Stripe-Signature header at all. */
  unsigned?: boolean;
}

export interface Delivery {
  eventId: string;
  type: string;
  url: string;
  /** The receiver's status, or null when it could not be reached (then `error` says why). */
  status: number | null;
  error: string | null;
}

export class WebhookSender {
  url: string | null = null;
  readonly deliveries: Delivery[] = [];
  /** Automatic deliveries go one at a time, in event order; `deliver` can reorder or duplicate. */
  private queue: Promise<void> = Promise.resolve();

  /** `now`: the fake's clock in Unix seconds, which signs each delivery, as Stripe signs with its own. */
  constructor(
    private readonly secret: () => string,
    private readonly now: () => number,
  ) {}

  async deliver(event: StripeEvent, url = this.url, options: DeliverOptions = {}): Promise<Response> {
    if (!url) throw new Error('fake Stripe: no webhook URL to deliver to (set webhookUrl or pass one)');
    const payload = JSON.stringify(event, null, 2);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
    };
    if (!options.unsigned) {
      headers['stripe-signature'] = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? this.secret(),
        timestamp: options.timestamp ?? this.now(),
      });
    }
    const delivery: Delivery = { eventId: event.id, type: event.type, url, status: null, error: null };
    this.deliveries.push(delivery);
    try {
      const response = await fetch(url, { method: 'POST', headers, body: payload, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
      delivery.status = response.status;
      // Stripe counts only a 2xx as delivered; the event stays pending otherwise.
      if (response.ok && url === this.url && !options.secret && !options.unsigned && options.timestamp === undefined) {
        event.pending_webhooks = 0;
      }
      return response;
    } catch (error) {
      delivery.error = error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : String(error);
      throw error;
    }
  }

  /** Called for every recorded event: queues a signed POST to `url` if one is set. */
  recorded(event: StripeEvent) {
    const url = this.url;
    if (!url) return;
    event.pending_webhooks = 1;
    this.queue = this.queue.then(async () => {
      // A receiver that is down is recorded in `deliveries`, never thrown into the test.
      const response = await this.deliver(event, url).catch(() => undefined);
      await response?.arrayBuffer().catch(() => undefined);
    });
  }

  /** Resolves once every automatic delivery queued so far, and any queued meanwhile, has finished. */
  async settled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }
}
