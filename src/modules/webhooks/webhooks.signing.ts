import { createHmac } from 'node:crypto';
import type { RandomBytes } from '../../shared/crypto/random.ts';

/** Standard Webhooks secrets: "whsec_" and base64 of 24 random bytes. */
export const newWebhookSecret = (random: RandomBytes) => `whsec_${random(24).toString('base64')}`;

/** The Standard Webhooks signature: v1, base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" keyed with the decoded secret. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
