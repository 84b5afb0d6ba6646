import { DISPLAY_PREFIX_LENGTH, TOKEN_PREFIX } from './keys.tokens.ts';

/**
 * A key anywhere in a query string: under any name, as a name, inside a longer value, repeated, in
 * array form (`a[]=`). Capitals count too: they are still the key's digits. A key with a few digits
 * cut off is not matched; the names below catch the usual places for one.
 */
const KEY_SHAPE = new RegExp(`${TOKEN_PREFIX}[0-9a-f]{64}`, 'i');

/**
 * Each %XX escape decoded on its own, which never fails: the query parser leaves a whole value encoded
 * when one escape in it is bad, and that would hide an encoded key beside it. The shape holds only
 * letters, digits and `_`, so a match in the whole query string lies within one name or one value.
 */
const decodeEscapes = (raw: string) =>
  raw.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** Names of query parameters that people use to pass keys: any of them refuses the call, whatever its value. */
const KEY_QUERY_PARAMETERS = ['api_key', 'apikey', 'key', 'token', 'access_token'];
/**
 * `?key=` also names a key by its display prefix (`GET /usage/daily?key=ak_live_1a2b3c4d`), which is
 * no secret. A value no longer than a prefix cannot hold a key; a longer one may, and is refused.
 */
const SHORT_KEY_PARAMETER = { name: 'key', maxLength: DISPLAY_PREFIX_LENGTH };

function isKeyParameter(name: string, values: readonly string[]): boolean {
  const lower = name.toLowerCase();
  if (!KEY_QUERY_PARAMETERS.includes(lower)) return false;
  return lower !== SHORT_KEY_PARAMETER.name || values.length > 1 || values[0]!.length > SHORT_KEY_PARAMETER.maxLength;
}

/** Whether the query string of this request URL (path and query) holds, or may hold, an API key. */
export function holdsKeyInUrl(url: string): boolean {
  const start = url.indexOf('?');
  if (start === -1) return false;
  const query = url.slice(start + 1);
  if (KEY_SHAPE.test(decodeEscapes(query))) return true;
  const parameters = new URLSearchParams(query);
  return [...new Set(parameters.keys())].some((name) => isKeyParameter(name, parameters.getAll(name)));
}
