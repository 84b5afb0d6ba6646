import { operationsOf } from './openapi.passes.ts';

type Json = Record<string, any>;

/** Every response header an /api/v1/ answer can carry, as the document describes it. */
export const RESPONSE_HEADERS: Record<string, string> = {
  ratelimit:
    'What is left of the rate limits this minute (draft-ietf-httpapi-ratelimit-headers): ' +
    '`"per-key";r=<remaining>;t=<seconds to reset>, "per-account";r=…;t=…`. On every answer after the key is known.',
  'ratelimit-policy': 'The limits themselves: `"per-key";q=<requests>;w=60, "per-account";q=…;w=60`.',
  'retry-after': 'Seconds to wait before trying again.',
  'www-authenticate': 'The Bearer challenge (RFC 6750): `Bearer realm="subpilot"`, with `error` and `scope` when the key was refused.',
  allow: 'The methods this path answers (RFC 9110), e.g. `GET, HEAD`.',
  location: 'The resource: where it lives (201) or where to poll it until it ends (202).',
  'preference-applied': '`respond-async` when the request asked for it with `Prefer: respond-async` (RFC 7240).',
  'idempotent-replayed': '`true` when this is the outcome of an earlier request with the same Idempotency-Key, not a new run.',
  'credits-charged':
    'Credits this request charged, as the body\'s `credits.charged` (0 while a scrape still runs: its price is held, and charged when it ends). ' +
    'A replay of an Idempotency-Key repeats the first answer\'s figure; nothing is charged again.',
  'credits-balance': 'The account\'s spendable balance after this request (credits held by unfinished work are not spendable), as the body\'s `credits.balance`; on a 402, the balance that refused it.',
  'credits-required': 'What the refused request would have cost, as the body\'s `required`.',
};

/** A response whose body states what it charged and the balance after (scrape, generate, publish, drafts): it says so in headers too. */
function statesCost(doc: Json, response: Json): boolean {
  let schema: Json | undefined = response.content?.['application/json']?.schema;
  if (schema?.$ref) schema = doc.components.schemas[String(schema.$ref).split('/').pop()!];
  return schema?.properties?.credits?.properties?.balance !== undefined;
}

const header = (name: string, required = false) => ({
  description: RESPONSE_HEADERS[name],
  ...(required ? { required: true } : {}),
  schema: { type: 'string' },
});

/** Headers that a status always carries, whatever the operation (the rest are declared where they arise). */
const REQUIRED_BY_STATUS: Record<string, string[]> = {
  '201': ['location'],
  '202': ['location'],
  '401': ['www-authenticate'],
  '405': ['allow'],
};

/**
 * Declares every header each response can carry: those of the problem samples (already listed by
 * name), the RateLimit pair on every answer, Location on 201 and 202, Preference-Applied on 202,
 * Idempotent-Replayed wherever an Idempotency-Key is honoured, and the cost where the body states it.
 */
export function declareHeaders(doc: Json): void {
  for (const [, , op] of operationsOf(doc)) {
    const idempotent = (op.parameters ?? []).some((p: Json) => p.in === 'header' && p.name === 'idempotency-key');
    for (const [status, response] of Object.entries(op.responses)) {
      const names = new Set([...Object.keys(response.headers ?? {}), 'ratelimit', 'ratelimit-policy', ...(REQUIRED_BY_STATUS[status] ?? [])]);
      if (status === '202') names.add('preference-applied');
      if (status === '429' || status === '503') names.add('retry-after');
      if (idempotent) names.add('idempotent-replayed');
      if (statesCost(doc, response)) (names.add('credits-charged'), names.add('credits-balance'));
      response.headers = Object.fromEntries(
        [...names].sort().map((name) => [name, header(name, (REQUIRED_BY_STATUS[status] ?? []).includes(name))]),
      );
    }
  }
}
