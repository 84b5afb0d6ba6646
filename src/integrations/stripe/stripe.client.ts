import Stripe from 'stripe';
import type { StripeConfig } from '../../shared/config/billing.ts';

/**
 * The API version every call asks for, pinned here rather than left to the library's default, so an
 * upgrade of `stripe` cannot change the shape of what Stripe answers without a change to this line.
 * It is the version stripe@23.1.0 was built for (its CHANGELOG; cjs/apiVersion.js).
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

export type StripeClient = Stripe;

/**
 * The official client pointed at STRIPE_API_URL (api.stripe.com, or a fake on 127.0.0.1 in tests).
 * The library retries connection errors, 409s and 5xx twice with the same idempotency key, which
 * Stripe replays; a call that must never run twice (a top-up) passes its own key as well.
 */
export function createStripeClient(config: StripeConfig): StripeClient {
  const url = new URL(config.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(config.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
    maxNetworkRetries: 2,
    // Checkout is created while a person waits on the page; 80 s (the default) is too long to hang.
    timeout: 20_000,
    appInfo: { name: 'subpilot' },
  });
}
