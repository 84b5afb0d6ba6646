/**
 * The two forms an Idempotency-Key header comes in, as one pattern: Stripe's bare value (1–255 visible
 * ASCII characters, not starting with a quote) and the IETF draft's Structured Field string (RFC 8941
 * sf-string: quoted, `\"` and `\\` escaped, printable ASCII with spaces, 1–255 characters inside).
 * Routes that validate the header with a schema use it as their `pattern`.
 */
/** The pattern in words, as it completes "<field> …" (its `x-rule`). */
export const IDEMPOTENCY_KEY_RULE =
  'must be 1–255 visible ASCII characters not starting with a quote, or a quoted string of 1–255 printable ASCII characters with " and \\ escaped by \\';

export const IDEMPOTENCY_KEY_PATTERN = '^(?:[\\x21\\x23-\\x7e][\\x21-\\x7e]{0,254}|"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\["\\\\]){1,255}")$';

const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/**
 * The key a header names, or null when it is malformed. `"k1"` and `k1` are one key (the string inside
 * the quotes), so a client that retries in the other form gets the first answer instead of a second charge.
 */
export function parseIdempotencyKey(header: string): string | null {
  if (!KEY.test(header)) return null;
  return header.startsWith('"') ? header.slice(1, -1).replace(/\\(["\\])/g, '$1') : header;
}

/** An optional key already checked against the pattern (a header or a tool argument), unquoted: undefined when none was sent. */
export const optionalIdempotencyKey = (value: string | undefined): string | undefined =>
  value === undefined ? undefined : (parseIdempotencyKey(value) ?? undefined);
