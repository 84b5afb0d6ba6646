import type { RandomBytes } from '../../shared/crypto/random.ts';
import { sha256 } from '../../shared/crypto/sha256.ts';

export const TOKEN_PREFIX = 'ak_live_';
const TOKEN_PATTERN = /^ak_live_[0-9a-f]{64}$/;
/** RFC 9110 auth-scheme is case-insensitive; the rest must be exactly one space and one token. */
const HEADER_PATTERN = /^bearer (\S+)$/i;

export const generateToken = (random: RandomBytes): string => TOKEN_PREFIX + random(32).toString('hex');

export const fingerprintOf = (token: string): string => sha256(token);

/** `ak_live_` and 8 hex digits: what the dashboard, the CLI and lists show of a key; no secret. */
export const DISPLAY_PREFIX_LENGTH = TOKEN_PREFIX.length + 8;
export const displayPrefixOf = (token: string): string => token.slice(0, DISPLAY_PREFIX_LENGTH);

type ParsedAuthorization =
  | { kind: 'missing' }
  | { kind: 'malformed'; reason: string }
  | { kind: 'token'; token: string };

export function parseAuthorization(values: readonly string[] | undefined): ParsedAuthorization {
  if (!values || values.length === 0) return { kind: 'missing' };
  if (values.length > 1) return { kind: 'malformed', reason: 'send exactly one Authorization header' };
  const match = HEADER_PATTERN.exec(values[0]!);
  if (!match) {
    return { kind: 'malformed', reason: 'the Authorization header must be "Bearer <API key>" with exactly one space' };
  }
  if (!TOKEN_PATTERN.test(match[1]!)) {
    return { kind: 'malformed', reason: 'an API key is "ak_live_" followed by 64 lowercase hexadecimal characters' };
  }
  return { kind: 'token', token: match[1]! };
}
