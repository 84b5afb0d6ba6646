import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Links that act on a destination without a log-in: the confirmation of an address, the linking of a
 * Telegram chat, a mail's one-click unsubscribe (RFC 8058). Each is the destination id's 28 hex
 * digits and an HMAC of it with SECRET_KEY, per purpose: nothing to store, nothing to steal from the
 * database, and a link for one purpose does nothing for another. 50 characters of [0-9A-Za-z_-],
 * so it is also a Telegram deep-link payload (core.telegram.org/bots/features#deep-linking: up to 64).
 */
export type TokenPurpose = 'confirm' | 'link' | 'unsubscribe';

const ID_DIGITS = 28;
const SHAPE = /^[0-9a-f]{28}[A-Za-z0-9_-]{22}$/;

const mac = (key: Buffer, purpose: TokenPurpose, destinationId: string) =>
  createHmac('sha256', key).update(`destination-${purpose}:${destinationId}`).digest('base64url').slice(0, 22);

export const tokenFor = (key: Buffer, purpose: TokenPurpose, destinationId: string) => `${destinationId.slice(4)}${mac(key, purpose, destinationId)}`;

/** The destination a token was made for, or null when it is not one of ours for this purpose. */
export function destinationOf(key: Buffer, purpose: TokenPurpose, token: string): string | null {
  if (!SHAPE.test(token)) return null;
  const id = `dst_${token.slice(0, ID_DIGITS)}`;
  const expected = Buffer.from(mac(key, purpose, id));
  return timingSafeEqual(expected, Buffer.from(token.slice(ID_DIGITS))) ? id : null;
}
