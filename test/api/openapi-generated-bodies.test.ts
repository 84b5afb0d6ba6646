import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../src/app/server.ts';
import { REFUSED_AS } from '../../src/shared/http/field-rules.ts';
import { startPublishingApp, type PublishingApp } from '../support/publishing.ts';
import { deref, schemaArbitrary, unionOf, type Components, type Schema } from '../support/schema-arbitraries.ts';
import { mutations, type Rule } from '../support/schema-mutations.ts';
import { engines } from '../support/engines.ts';
import { matchStore } from '../support/matches.ts';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';

/*
 * Request bodies generated from the served document, 200 valid and 200 invalid per operation that takes
 * one (a oneOf body's 200 spread over its branches). "Valid" and "invalid" are ajv's verdict on the
 * document's schema, not the generator's claim: a valid body must never be refused by a rule the
 * document states (`request.invalid`, or the code `x-refused-as` gives a rule between fields, such as
 * `query.missing`), an invalid one (a valid body with one rule broken) always must. Valid bodies go all the way: the
 * account has credits and a connected Reddit user, generate has a (fake) language model, publish a
 * (fake) Reddit, checkout a (fake) Stripe. Any answer other than request.invalid (a 202, a 404 for a generation that does not
 * exist, a 422 publish.rejected from Reddit) counts as not refused: the schema let it through.
 */

const SEED = 230_505;
const PER_OPERATION = 200;
/** Monitors are created by the hundred here; the per-account limits are not what this test is about. */
const LIMITS = { MONITOR_MAX_PER_ACCOUNT: '1000000', MONITOR_MAX_SUBREDDITS_PER_ACCOUNT: '1000000' };
/** 422s with codes of their own that a valid body may get: checks the schema cannot say, about the account or Reddit. */
const OTHER_422_CODES = [
  'billing.unknown_pack', // a whole number of credits, but no pack of CREDIT_PACKS has that many
  'destinations.invalid_time_zone', // a string, but not a time zone of the IANA database the server has
  'destinations.invalid_url', // an http(s) URL, but not a webhook of the named service (its host and path; see docs/api/destinations.md)
  'monitors.limit_reached', // the account already has as many monitors as the server allows (raised above)
  'monitors.too_many_subreddits', // its monitors together would watch more subreddits than allowed (raised above)
  'publish.rejected', // Reddit (here the fake one) refused the post: a subreddit or a parent it does not have
  'query.invalid', // a query the grammar refuses (docs/api/queries.md): no JSON Schema can state a grammar
  'webhooks.invalid_url', // the URL is well formed but not one this server delivers to (http, credentials, a private host)
];

/*
 * The webhook URLs sent. The document's format (uri, ^https?://) says less than the server checks: it
 * also wants https (http only for a loopback receiver, with ALLOW_HTTP_WEBHOOKS), no credentials in
 * the URL, and a host that resolves to public addresses only, and refuses the rest as webhooks.invalid_url.
 * So these are https URLs without user info, to public IP literals or to names the test's resolver
 * answers with a public address: nothing is looked up and, with no worker running, nothing is sent.
 */
const PUBLIC_ADDRESS = '93.184.216.34';
const webhookUrls = fc.oneof(
  fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
  fc.tuple(fc.constantFrom(PUBLIC_ADDRESS, '[2606:2800:21f:cb07:6820:80da:af6b:8b2c]'), fc.webPath()).map(([host, path]) => `https://${host}${path}`),
);

const OPERATIONS = [
  'POST /api/v1/scrape',
  'POST /api/v1/generate',
  'POST /api/v1/publish',
  'POST /api/v1/monitors',
  'PATCH /api/v1/monitors/{id}',
  'PATCH /api/v1/generations/{id}',
  'PATCH /api/v1/matches/{id}',
  'POST /api/v1/credits/checkout',
  'POST /api/v1/destinations',
  'PATCH /api/v1/destinations/{id}',
  'POST /api/v1/destinations/{id}/test',
  'PUT /api/v1/monitors/{id}/destinations/{destination_id}',
];

type Document = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>; components: Components };
type Broken = { rule: Rule; path: string; body: unknown };
type Outcome = { status: number; code: string | null };

/** The codes of a schema's rules between fields (field-rules.ts), at any depth, through its $refs. */
function statedCodes(schema: unknown, components: Components): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = '$ref' in schema ? deref(schema as Schema, components) : (schema as Schema);
  const own = REFUSED_AS in node ? [String(node[REFUSED_AS])] : [];
  return [...own, ...Object.values(node).flatMap((child) => statedCodes(child, components))];
}
/** Within the server's body limit: a larger body is answered 413 before any validation. */
const fits = (body: unknown) => Buffer.byteLength(JSON.stringify(body)) <= BODY_LIMIT;
/** n split as evenly as can be over `parts` (the first ones get the remainder). */
const spread = (n: number, parts: number) => Array.from({ length: parts }, (_, i) => Math.floor(n / parts) + (i < n % parts ? 1 : 0));
const count = (keys: string[]) => keys.reduce<Record<string, number>>((counts, key) => ({ ...counts, [key]: (counts[key] ?? 0) + 1 }), {});

/**
 * `count` valid bodies of `schema` and as many invalid ones: each another valid body with one rule
 * broken, the rules that body offers taken in turn, the place and the way picked by the seed.
 */
function bodiesOf(schema: Schema, components: Components, number: number, seed: number): { valid: unknown[]; invalid: Broken[] } {
  const bodies = schemaArbitrary(schema, components, { formats: { uri: webhookUrls, email: fc.emailAddress() } }).filter(fits);
  const valid = fc.sample(bodies, { seed, numRuns: number });
  const invalid = fc.sample(fc.tuple(bodies, fc.nat()), { seed: seed + 50, numRuns: number }).map(([body, choice], index) => {
    const all = mutations(body, schema, components);
    const rules = [...new Set(all.map((m) => m.rule))].sort();
    const ofRule = all.filter((m) => m.rule === rules[index % rules.length]);
    // From the chosen one on, the first that stays within the body limit.
    for (let i = 0; i < ofRule.length; i++) {
      const { rule, path, apply } = ofRule[(choice + i) % ofRule.length]!;
      const broken = apply();
      if (fits(broken)) return { rule, path, body: broken };
    }
    throw new Error(`no ${ofRule[0]!.rule} mutation of ${JSON.stringify(body).slice(0, 200)} fits in ${BODY_LIMIT} bytes`);
  });
  return { valid, invalid };
}

/** `tasks` run `width` at a time. */
async function pooled<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

describe.each(engines)('request bodies generated from the OpenAPI document (%s)', (engine) => {
  let app: PublishingApp;
  let stripe: FakeStripe;
  let token: string;
  /** The resource each PATCH changes, by the path's first segment: one of each, made below. */
  const ids: Record<string, string> = {};
  let doc: Document;
  let ajv: Ajv2020;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    app = await startPublishingApp(engine, {
      worker: false,
      env: {
        ...LIMITS,
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_URL: stripe.url,
        CREDIT_PACKS: '500:5.00,2000:18.00',
        PUBLIC_URL: 'http://127.0.0.1:9',
      },
      overrides: () => ({ resolveHost: async () => [{ address: PUBLIC_ADDRESS, family: 4 }] }),
    });
    const account = await app.connectedAccount(100_000_000);
    token = account.token;
    // A post draft needs a title line and a body; the fake model's default echo is one line.
    app.llm.reply = () => 'Title: A draft\n\nIts body, as the instructions asked.';
    doc = await (await app.api('GET', '/openapi.json')).json();
    ajv = new Ajv2020({ strict: false, allErrors: true });
    formats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    // With keywords and a query: a PATCH may empty either one, as the document allows.
    const created = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'target', subreddits: ['r/node'], keywords: ['x'], query: 'x' } });
    expect(created.status).toBe(201);
    ids.monitors = ((await created.json()) as { id: string }).id;
    free.push(ids.monitors);
    for (let i = 1; i < 8; i++) {
      const lane = await app.api('POST', '/api/v1/monitors', { token, body: { name: `target ${i}`, subreddits: ['r/node'], keywords: ['x'], query: 'x' } });
      free.push(((await lane.json()) as { id: string }).id);
    }
    // A destination to send tests to (no worker runs: they stay in the outbox).
    const slack = { kind: 'slack', name: 'target', url: 'https://hooks.slack.com/services/T0001/B0001/generated' };
    ids.destinations = ((await (await app.api('POST', '/api/v1/destinations', { token, body: slack })).json()) as { id: string }).id;
    // A completed draft to edit, and a match (the poller's to find; stored here as it stores them) to dismiss or reopen.
    const drafted = await app.api('POST', '/api/v1/generate', { token, body: { type: 'post', subreddit: 'r/node', instructions: 'x' } });
    expect(drafted.status).toBe(200);
    ids.generations = ((await drafted.json()) as { id: string }).id;
    [ids.matches] = await matchStore(app.services.db)(ids.monitors, account.accountId, 1);
  });
  afterAll(async () => {
    await app?.close();
    await stripe?.close();
  });

  const validatorFor = (schema: Schema): ValidateFunction =>
    ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));

  /**
   * PATCHes of a monitor, each on a monitor no other PATCH is using, after its keywords and query are
   * set back: what one PATCH empties, the next could otherwise not (a refusal that depends on the
   * monitor, not the body). Eight monitors, so that the PATCHes run side by side like the other calls.
   */
  const free: string[] = [];
  const waiting: ((id: string) => void)[] = [];
  async function inTurn<T>(patch: (monitorId: string) => Promise<T>): Promise<T> {
    const monitorId = free.pop() ?? (await new Promise<string>((resolve) => waiting.push(resolve)));
    try {
      const reset = await app.api('PATCH', `/api/v1/monitors/${monitorId}`, { token, body: { keywords: ['x'], query: 'x' } });
      expect(reset.status).toBe(200);
      return await patch(monitorId);
    } finally {
      const next = waiting.shift();
      if (next) next(monitorId);
      else free.push(monitorId);
    }
  }

  async function send(method: string, path: string, body: unknown): Promise<Outcome> {
    const kind = path.split('/')[3]!;
    if (kind === 'monitors' && method === 'PATCH') return inTurn((monitorId) => sendNow(method, path.replace('{id}', monitorId), body));
    return sendNow(method, path, body);
  }

  async function sendNow(method: string, path: string, body: unknown): Promise<Outcome> {
    // PATCH changes the one resource of its kind made above; a scrape answers 202 at once and stays queued (no worker).
    const headers: Record<string, string> = path.endsWith('/scrape') ? { prefer: 'respond-async' } : {};
    const target = path.replace('{id}', ids[path.split('/')[3]!]!).replace('{destination_id}', ids.destinations!);
    const response = await app.api(method, target, { token, body: JSON.stringify(body), headers });
    const problem = response.headers.get('content-type')?.startsWith('application/problem+json') ? await response.json() : (await response.arrayBuffer(), null);
    return { status: response.status, code: (problem as { code?: string } | null)?.code ?? null };
  }

  it('covers every operation that takes a request body', () => {
    const withBodies = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.requestBody)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(withBodies.sort()).toEqual([...OPERATIONS].sort());
  });

  it.each(OPERATIONS)('%s: valid bodies are never refused by a rule the document states, invalid ones always are', async (operation) => {
    const [method, path] = operation.split(' ') as [string, string];
    const schema = doc.paths[path]![method.toLowerCase()]!.requestBody!.content['application/json']!.schema;
    // Refused by the validator (request.invalid) or as one of the rules between fields it states.
    const stated = new Set(['request.invalid', ...statedCodes(schema, doc.components)]);
    const refusedByValidation = (outcome: Outcome) => outcome.status === 422 && stated.has(outcome.code ?? '');
    const validate = validatorFor(schema);
    const branches = unionOf(deref(schema, doc.components)) ?? [schema];
    const seed = SEED + OPERATIONS.indexOf(operation) * 100;
    const generated = spread(PER_OPERATION, branches.length).map((number, branch) => bodiesOf(branches[branch]!, doc.components, number, seed + branch));
    const valid = generated.flatMap((g) => g.valid);
    const invalid = generated.flatMap((g) => g.invalid);

    // The document's verdict: every valid body is valid by it, and every broken one breaks the rule meant, where meant.
    expect(valid.filter((body) => !validate(body))).toEqual([]);
    const notBroken = invalid.filter(({ rule, path: at, body }) => validate(body) || !validate.errors!.some((e) => e.keyword === rule && e.instancePath === at));
    expect(notBroken).toEqual([]);

    const [validOutcomes, invalidOutcomes] = await Promise.all([
      pooled(valid.map((body) => () => send(method, path, body)), 4),
      pooled(invalid.map(({ body }) => () => send(method, path, body)), 4),
    ]);

    const refusedValid = validOutcomes.filter(refusedByValidation).length;
    const refusedInvalid = invalidOutcomes.filter(refusedByValidation).length;
    const byRule = count(invalid.map(({ rule }, i) => `${rule}${refusedByValidation(invalidOutcomes[i]!) ? '' : ' NOT refused'}`));
    console.log(
      `${operation} (seed ${seed}, ${branches.length} shape${branches.length > 1 ? 's' : ''})\n` +
        `  valid:   ${valid.length} generated, ${valid.length - refusedValid} accepted, ${refusedValid} refused; ` +
        `answers ${JSON.stringify(count(validOutcomes.map((o) => `${o.status}${o.code ? ` ${o.code}` : ''}`)))}\n` +
        `  invalid: ${invalid.length} generated, ${refusedInvalid} refused, ${invalid.length - refusedInvalid} accepted; by rule ${JSON.stringify(byRule)}`,
    );

    expect(valid.filter((_, i) => refusedByValidation(validOutcomes[i]!))).toEqual([]);
    expect(invalid.flatMap((broken, i) => (refusedByValidation(invalidOutcomes[i]!) ? [] : [{ ...broken, answer: invalidOutcomes[i] }]))).toEqual([]);
    // No valid body breaks the server (a 502–504 would be about an outside service), and a 422 for
    // one is among the known checks beyond the schema.
    expect(validOutcomes.filter((o) => o.status === 500)).toEqual([]);
    expect(validOutcomes.filter((o) => o.status === 422 && !OTHER_422_CODES.includes(o.code ?? ''))).toEqual([]);
  }, 60_000);
});
