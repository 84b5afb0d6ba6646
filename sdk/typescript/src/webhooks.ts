import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';

/** Request headers as a server framework gives them: a `Headers`, or Node's object of lowercase names. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now (default 300 s, as Standard Webhooks advises). */
  toleranceSeconds?: number;
  /** The clock, in milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
}

const header = (headers: HeadersLike, name: string): string | undefined => {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(' ') : value;
};

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Checks that subpilot signed this webhook request (Standard Webhooks: the account's `whsec_…` secret,
 * HMAC-SHA256 of `webhook-id.webhook-timestamp.body`) within the tolerance, and returns its event.
 * `body` must be the raw body as received, byte for byte: parsing and re-serialising the JSON changes
 * it. `webhook-signature` may hold several `v1,` signatures (a secret rolled within the last day signs
 * beside the new one); any of them will do. Each is checked by Web Crypto's `verify`, which compares in
 * constant time. Throws `WebhookVerificationError` otherwise: answer 400 and act on nothing. Drop a
 * `webhook-id` you have handled already: a delivery whose answer was lost comes again.
 */
export async function verifyWebhook(secret: string, headers: HeadersLike, body: string | Uint8Array, options: VerifyOptions = {}): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature are all needed.');
  const now = (options.now ?? Date.now)() / 1000;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('timestamp', 'webhook-timestamp is too far from now: an old delivery replayed, or a clock far off.');
  }
  const secretBytes = base64Bytes(secret.replace(/^whsec_/, ''));
  if (secretBytes === null || secretBytes.length === 0) throw new TypeError('The secret is not a whsec_… secret: copy it again from the Webhooks page.');
  const key = await globalThis.crypto.subtle.importKey('raw', secretBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const bodyBytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + bodyBytes.length);
  signed.set(prefix);
  signed.set(bodyBytes, prefix.length);

  let valid = false;
  for (const entry of signatures.split(' ')) {
    const signature = entry.startsWith('v1,') ? base64Bytes(entry.slice(3)) : null;
    if (signature !== null && (await globalThis.crypto.subtle.verify('HMAC', key, signature, signed))) valid = true;
  }
  if (!valid) throw new WebhookVerificationError('signature', 'No signature in webhook-signature matches this body under this secret.');
  try {
    return JSON.parse(new TextDecoder().decode(bodyBytes)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('body', 'The signed body is not JSON.');
  }
}
