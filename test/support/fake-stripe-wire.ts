/**
 * Wire helpers of the fake Stripe (see fake-stripe.ts for the sources): ids, the form-body parser,
 * Stripe's error bodies and list pages.
 */
import { randomBytes } from 'node:crypto';

/** A parsed form body or query string: bracket keys become nested objects, `[0]`, `[1]`… arrays. */
export type Param = string | Param[] | Params;
export interface Params {
  [key: string]: Param;
}

/** What a handler answers. `store: false` keeps it out of the idempotency store (see server). */
export interface Answer {
  status: number;
  body: unknown;
  store: boolean;
}

export const ok = (body: unknown): Answer => ({ status: 200, body, store: true });

/** A whole number as the API reads one from a form value, else undefined. */
export const integer = (text: string | undefined) => (text !== undefined && /^-?\d+$/.test(text) ? Number(text) : undefined);

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomChars(length: number): string {
  return [...randomBytes(length)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** `pi_` + 24 random chars, the length of Stripe's own ids (stripe/openapi fixtures3.json: pi_1PgafyB7WZ01zgkWSjxsAJo3). */
export function newId(prefix: string): string {
  return `${prefix}_${randomChars(24)}`;
}

/**
 * Parses `a[b][0][c]=x&types[]=y` the way Stripe's API (and `qs`) reads what stripe-node's
 * `stringifyRequestData` writes: each bracket is one level, numeric levels become arrays, `[]` appends.
 */
export function parseForm(text: string): Params {
  // Prototype-less while building, so a key such as `__proto__[x]` stays a plain key.
  const root: Params = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const path = splitKey(key);
    let node: Params = root;
    path.forEach((segment, i) => {
      const name = segment === '' ? String(Object.keys(node).length) : segment;
      if (i === path.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      node = typeof next === 'object' && !Array.isArray(next) ? next : (node[name] = Object.create(null));
    });
  }
  return toArrays(root) as Params;
}

function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0 || !key.endsWith(']')) return [key];
  return [key.slice(0, open), ...key.slice(open + 1, -1).split('][')];
}

function toArrays(value: Param): Param {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((k) => [k, toArrays(value[k])]));
  const isList = keys.length > 0 && keys.every((k, i) => k === String(i));
  return isList ? keys.map((k) => converted[k]) : converted;
}

export const str = (params: Params | undefined, key: string): string | undefined => {
  const value = params?.[key];
  return typeof value === 'string' ? value : undefined;
};

export const obj = (params: Params | undefined, key: string): Params | undefined => {
  const value = params?.[key];
  return typeof value === 'object' && !Array.isArray(value) ? value : undefined;
};

export const list = (params: Params | undefined, key: string): Param[] => {
  const value = params?.[key];
  if (Array.isArray(value)) return value;
  // `line_items[1]` alone stays an object keyed "1"; Stripe would index it the same way.
  return typeof value === 'object' ? Object.values(value) : [];
};

/** Metadata values are strings on the wire and in Stripe's objects. */
export const metadataOf = (params: Params | undefined, key = 'metadata'): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(params, key) ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));

/** Stripe links every error code to its page: https://stripe.com/docs/error-codes/resource-missing and so on. */
const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}`;

export function stripeError(
  status: number,
  error: { type: string; message: string; code?: string; param?: string; [key: string]: unknown },
  store = false,
): Answer {
  const withDoc = error.code && !error.doc_url ? { ...error, doc_url: docUrl(error.code) } : error;
  return { status, body: { error: withDoc }, store };
}

export const invalidRequest = (message: string, param?: string, code?: string, status = 400): Answer =>
  stripeError(status, { type: 'invalid_request_error', message, ...(code ? { code } : {}), ...(param ? { param } : {}) });

/** "Missing required param: success_url." with code parameter_missing (stripe/stripe-node#1944). */
export const missingParam = (param: string): Answer => invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');

/** "No such customer: '5'", code resource_missing, 404 (redwoodjs/example-store-stripe#168 quotes one). */
export const noSuch = (kind: string, id: string, param: string): Answer =>
  invalidRequest(`No such ${kind}: '${id}'`, param, 'resource_missing', 404);

/** Stripe's 404 for a path it does not route (stripe/stripe-dotnet#118, exercism/website#7474). */
export const unrecognizedUrl = (method: string, path: string): Answer =>
  invalidRequest(
    `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    undefined,
    undefined,
    404,
  );

/** Masks a key as Stripe does in "Invalid API Key provided: sk_test_****…Aso0" (stripe/stripe-node#361). */
export function maskKey(key: string): string {
  const prefix = /^[a-z]+_(test_|live_)?/.exec(key)?.[0] ?? '';
  const rest = key.slice(prefix.length);
  return rest.length <= 4 ? '*'.repeat(key.length) : `${prefix}${'*'.repeat(rest.length - 4)}${rest.slice(-4)}`;
}

/** The 401s: Stripe's wording for a missing key (stripe/stripe-node#1353) and for a wrong one. */
export const unauthorized = (key: string | undefined): Answer =>
  key
    ? invalidRequest(`Invalid API Key provided: ${maskKey(key)}`, undefined, undefined, 401)
    : invalidRequest(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). " +
          'See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.',
        undefined,
        undefined,
        401,
      );

/** What `failNext` answers: Stripe's 500 wording (stripe/stripe-apps#819), or a 429 rate_limit. */
export const planned = (status: number): Answer =>
  status === 429
    ? stripeError(429, {
        type: 'invalid_request_error',
        code: 'rate_limit',
        message: 'Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.',
      })
    : stripeError(status, {
        type: 'api_error',
        message:
          'Error while communicating with one of our backends.  Sorry about that!  We have been notified of the problem.  ' +
          'If you have any questions, we can help at https://support.stripe.com/.',
      });

/** A reused key with other parameters: Stripe's wording, quoted in graphql-python/graphene#869. */
export const idempotencyMismatch = (key: string): Answer =>
  stripeError(400, {
    type: 'idempotency_error',
    message:
      'Keys for idempotent requests can only be used with the same parameters they were first used with. ' +
      `Try using a key other than '${key}' if you meant to execute a different request.`,
  });

/**
 * One page of a newest-first list, as docs.stripe.com/api/pagination describes it: `starting_after`
 * gives the next older objects, `ending_before` the newer ones nearest the cursor (still newest
 * first: stripe-node's autoPagination walks that page backwards), `limit` 1..100, default 10. The
 * cursor is found among all objects, so it may be one the filter `keep` leaves out.
 */
export function page<T extends { id: string }>(newestFirst: T[], keep: (o: T) => boolean, query: Params, url: string): Answer {
  const limitText = str(query, 'limit') ?? '10';
  const limit = Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return invalidRequest(`Invalid limit: ${limitText}. It must be an integer from 1 to 100.`, 'limit');
  }
  const after = str(query, 'starting_after');
  const before = str(query, 'ending_before');
  if (after !== undefined && before !== undefined) {
    return invalidRequest('You may only specify one of these parameters: starting_after, ending_before.', 'ending_before');
  }
  const cursor = after ?? before;
  const at = cursor === undefined ? -1 : newestFirst.findIndex((o) => o.id === cursor);
  if (cursor !== undefined && at < 0) return noSuch('object', cursor, after !== undefined ? 'starting_after' : 'ending_before');
  const candidates = (before !== undefined ? newestFirst.slice(0, at) : newestFirst.slice(at + 1)).filter(keep);
  const data = before !== undefined ? candidates.slice(-limit) : candidates.slice(0, limit);
  return { status: 200, body: { object: 'list', url, has_more: candidates.length > limit, data }, store: false };
}
