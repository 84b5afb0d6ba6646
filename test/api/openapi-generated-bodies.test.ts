import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../src/app/server.ts';
import { startPublishingApp, type PublishingApp } from '../support/publishing.ts';
import { deref, schemaArbitrary, type Components, type Schema } from '../support/schema-arbitraries.ts';
import { mutations, type Mutation, type Rule } from '../support/schema-mutations.ts';

/*
 * Request bodies generated from the served document, 200 valid and 200 invalid per operation that takes
 * one (a oneOf body's 200 spread over its branches). "Valid" and "invalid" are ajv's verdict on the
 * document's schema, not the generator's claim: a valid body must never be refused as `request.invalid`,
 * an invalid one (a valid body with one rule broken) always must. Valid bodies go all the way: the
 * account has credits and a connected Reddit user, generate has a (fake) language model, publish a
 * (fake) Reddit. Any answer other than request.invalid (a 202, a 404 for a generation that does not
 * exist, a 422 publish.rejected from Reddit) counts as not refused: the schema let it through.
 */

const SEED = 23_0505;
const PER_OPERATION = 200;
/** Monitors are created by the hundred here; the per-account limits are not what this test is about. */
const LIMITS = { MONITOR_MAX_PER_ACCOUNT: '1000000', MONITOR_MAX_SUBREDDITS_PER_ACCOUNT: '1000000' };
/**
 * 422s with codes of their own that a valid body may get: checks the schema cannot say. Each names a
 * state of the account, not a flaw in the body; with the limits above neither should happen.
 */
const OTHER_422_CODES = [
  'monitors.limit_reached', // the account already has as many monitors as the server allows
  'monitors.too_many_subreddits', // all its monitors together would watch more subreddits than allowed
  'publish.rejected', // Reddit (here the fake one) refused the post: a subreddit or a parent that does not exist there
];

/**
 * The webhook URLs sent: the document's format (uri, ^https?://) says less than the server checks. It
 * also wants https (http only for a loopback receiver, with ALLOW_HTTP_WEBHOOKS), no credentials in the
 * URL, and a host resolving to a public address, refused as request.invalid otherwise. So the URLs are
 * https ones without user info, to public IP literals or to names the test's resolver answers with a
 * public address: nothing is looked up and, with no worker running, nothing is ever sent.
 */
const PUBLIC_ADDRESS = '93.184.216.34';
const webhookUrls = fc.oneof(
  fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
  fc.tuple(fc.constantFrom(PUBLIC_ADDRESS, '[2606:2800:21f:cb07:6820:80da:af6b:8b2c]'), fc.webPath()).map(([host, path]) => `https://${host}${path}`),
);

/** The operations that take a body, and how to call them: a monitor to change, scrapes answered at once. */
const OPERATIONS = ['POST /api/v1/scrape', 'POST /api/v1/generate', 'POST /api/v1/publish', 'POST /api/v1/monitors', 'PATCH /api/v1/monitors/{id}'];

type Document = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>; components: Components };
type Outcome = { status: number; code: string | null };
type Tally = { generated: number; refused: number; statuses: Record<string, number> };

const tally = (): Tally => ({ generated: 0, refused: 0, statuses: {} });
const refusedByValidation = (outcome: Outcome) => outcome.status === 422 && outcome.code === 'request.invalid';
const fits = (body: unknown) => Buffer.byteLength(JSON.stringify(body)) <= BODY_LIMIT;

/** `tasks` run `width` at a time, in order of start. */
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

/** n split as evenly as can be over `parts` (the first ones get the remainder). */
const spread = (n: number, parts: number) => Array.from({ length: parts }, (_, i) => Math.floor(n / parts) + (i < n % parts ? 1 : 0));

describe('request bodies generated from the OpenAPI document', () => {
  let app: PublishingApp;
  let token: string;
  let monitorId: string;
  let doc: Document;
  let ajv: Ajv2020;

  beforeAll(async () => {
    app = await startPublishingApp('sqlite', {
      worker: false,
      env: LIMITS,
      overrides: () => ({ resolveHost: async () => [{ address: PUBLIC_ADDRESS, family: 4 }] }),
    });
    ({ token } = await app.connectedAccount(100_000_000));
    // A post draft needs a title line and a body; the fake model's default echo has no body.
    app.llm.reply = () => 'Title: A draft\n\nIts body, as the instructions asked.';
    doc = await (await app.api('GET', '/openapi.json')).json();
    ajv = new Ajv2020({ strict: false, allErrors: true });
    formats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const created = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'target', subreddits: ['r/node'], keywords: ['x'] } });
    expect(created.status).toBe(201);
    monitorId = ((await created.json()) as { id: string }).id;
  });
  afterAll(() => app.close());

  const validatorFor = (schema: Schema): ValidateFunction =>
    ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));

  async function send(method: string, path: string, body: unknown): Promise<Outcome> {
    const url = path.replace('{id}', monitorId);
    // A scrape answers 202 at once and is left queued: no worker runs it.
    const headers: Record<string, string> = path.endsWith('/scrape') ? { prefer: 'respond-async' } : {};
    const response = await app.api(method, url, { token, body: JSON.stringify(body), headers });
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

  it.each(OPERATIONS)('%s: valid bodies are never refused as request.invalid, invalid ones always are', async (operation) => {
    const [method, path] = operation.split(' ') as [string, string];
    const schema = doc.paths[path]![method.toLowerCase()]!.requestBody!.content['application/json']!.schema;
    const validate = validatorFor(schema);
    const branches = deref(schema, doc.components).oneOf ?? [schema];
    const seed = SEED + OPERATIONS.indexOf(operation) * 100;

    const valid: unknown[] = [];
    const invalid: Mutation[] = [];
    spread(PER_OPERATION, branches.length).forEach((count, branch) => {
      const bodies = schemaArbitrary(branches[branch]!, doc.components, { formats: { uri: webhookUrls } }).filter(fits);
      valid.push(...fc.sample(bodies, { seed: seed + branch, numRuns: count }));
      // Each invalid body: another valid one with one rule broken, the rules taken in turn.
      const picks = fc.sample(fc.tuple(bodies, fc.nat()), { seed: seed + 50 + branch, numRuns: count });
      picks.forEach(([body, choice], index) => {
        const all = mutations(body, branches[branch]!, doc.components).filter((m) => fits(m.body));
        const rules = [...new Set(all.map((m) => m.rule))].sort();
        const rule = rules[index % rules.length];
        const ofRule = all.filter((m) => m.rule === rule);
        invalid.push(ofRule[choice % ofRule.length]!);
      });
    });

    // The document's verdict: every generated body is what the generator meant, and each broken one names its rule.
    expect(valid.filter((body) => !validate(body))).toEqual([]);
    const unbroken = invalid.filter(({ rule, path: at, body }) => {
      if (validate(body)) return true;
      return !validate.errors!.some((error) => error.keyword === rule && error.instancePath === at);
    });
    expect(unbroken).toEqual([]);

    const validOutcomes = await pooled(valid.map((body) => () => send(method, path, body)), 4);
    const invalidOutcomes = await pooled(invalid.map(({ body }) => () => send(method, path, body)), 4);

    const validTally = tally();
    validOutcomes.forEach((outcome) => {
      validTally.generated++;
      if (refusedByValidation(outcome)) validTally.refused++;
      const key = `${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}`;
      validTally.statuses[key] = (validTally.statuses[key] ?? 0) + 1;
    });
    const invalidTally = tally();
    const byRule: Partial<Record<Rule, string>> = {};
    invalid.forEach(({ rule }, index) => {
      const outcome = invalidOutcomes[index]!;
      invalidTally.generated++;
      if (refusedByValidation(outcome)) invalidTally.refused++;
      const [refused, total] = (byRule[rule] ?? '0/0').split('/').map(Number) as [number, number];
      byRule[rule] = `${refused + (refusedByValidation(outcome) ? 1 : 0)}/${total + 1}`;
    });
    console.log(
      `${operation} (seed ${seed}, ${branches.length} shape${branches.length > 1 ? 's' : ''})\n` +
        `  valid:   ${validTally.generated} generated, ${validTally.generated - validTally.refused} accepted, ${validTally.refused} refused; answers ${JSON.stringify(validTally.statuses)}\n` +
        `  invalid: ${invalidTally.generated} generated, ${invalidTally.refused} refused, ${invalidTally.generated - invalidTally.refused} accepted; refused/sent by rule ${JSON.stringify(byRule)}`,
    );

    const wronglyRefused = valid.flatMap((body, i) => (refusedByValidation(validOutcomes[i]!) ? [body] : []));
    const wronglyAccepted = invalid.flatMap((mutation, i) => (refusedByValidation(invalidOutcomes[i]!) ? [] : [{ ...mutation, answer: invalidOutcomes[i] }]));
    expect(wronglyRefused).toEqual([]);
    expect(wronglyAccepted).toEqual([]);
    // No valid body breaks the server (a 502–504 would be about an outside service), and a 422 for a
    // valid body is one of the known checks beyond the schema.
    expect(validOutcomes.filter((o) => o.status === 500)).toEqual([]);
    expect(validOutcomes.filter((o) => o.status === 422 && !OTHER_422_CODES.includes(o.code ?? ''))).toEqual([]);
  }, 60_000);
});
