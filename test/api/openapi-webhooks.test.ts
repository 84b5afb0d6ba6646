import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAY_SECONDS, webhookSchemas, webhooksSection } from '../../src/app/openapi/openapi.webhooks.ts';
import { matchSchema } from '../../src/modules/monitors/monitors.schemas.ts';
import { scrapeSchema } from '../../src/modules/scrape/scrape.schemas.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/modules/webhooks/webhooks.events.ts';
import { loadConfig } from '../../src/shared/config/config.ts';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { startFakeStripe, type FakeStripe, type PaymentIntent } from '../support/fake-stripe.ts';
import { createMonitor, cycle, startMonitorsApp, type PinnedClock } from '../support/monitors.ts';
import { startReceiver } from '../support/receiver.ts';
import { startFakeSlack, type FakeChat } from '../support/fake-chat-webhooks.ts';

const SECRET_KEY = 'f'.repeat(64);

interface Operation {
  operationId: string;
  parameters: { name: string; in: string; required: boolean; description: string; schema: object }[];
  requestBody: { content: Record<string, { schema: { $ref: string }; examples: Record<string, { value: unknown }> }> };
  responses: Record<string, unknown>;
}
const section = webhooksSection() as Record<string, { post: Operation }>;
const operation = (type: string) => section[type]!.post;

/*
 * The section's refs point into the document's components.schemas: here those are webhookSchemas, and
 * for Scrape and Match, which the document takes from the endpoints, the endpoints' own schemas.
 */
const components = JSON.parse(JSON.stringify({ ...webhookSchemas, Scrape: scrapeSchema, Match: matchSchema }));
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
// A CommonJS module: its function is also its `default` property, which is what the types describe.
formats.default(ajv);
ajv.addSchema(JSON.parse(JSON.stringify({ $id: 'doc', $defs: components }).replaceAll('#/components/schemas/', 'doc#/$defs/')));
const validatorFor = (schema: object) => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', 'doc#/$defs/')));

/** What is wrong with `value` by `validate`: nothing when it is valid. */
const problems = (validate: ValidateFunction, value: unknown) => (validate(value) ? [] : validate.errors);

/** The body schema of one event, ready to validate with. */
const bodyValidator = (type: string) => validatorFor(operation(type).requestBody.content['application/json']!.schema);

describe('the webhooks section of the OpenAPI document', () => {
  it('has one entry per event type the code can send, and no other', () => {
    expect(Object.keys(section).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });

  it('gives each event a POST with an operationId, the three signature headers, a JSON body and its answers', () => {
    const ids = new Set<string>();
    for (const type of WEBHOOK_EVENT_TYPES) {
      const post = operation(type);
      ids.add(post.operationId);
      expect(post.operationId).toMatch(/^[a-z][A-Za-z]*Webhook$/);
      expect(post.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      for (const parameter of post.parameters) expect(parameter.description.length).toBeGreaterThan(40);
      expect(Object.keys(post.requestBody.content)).toEqual(['application/json']);
      expect(Object.keys(post.responses).sort()).toEqual(['2XX', 'default']);
    }
    expect(ids.size).toBe(WEBHOOK_EVENT_TYPES.length);
  });

  it('refers only to schemas it defines, or to Scrape and Match from the endpoints', () => {
    const refs = new Set(JSON.stringify({ section, webhookSchemas }).match(/#\/components\/schemas\/\w+/g));
    const names = [...refs].map((ref) => ref.split('/').pop()!);
    expect(names.filter((name) => !(name in webhookSchemas)).sort()).toEqual(['Match', 'Scrape']);
  });

  it('has examples that are valid bodies of their event', () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      const validate = bodyValidator(type);
      const examples = Object.values(operation(type).requestBody.content['application/json']!.examples);
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) expect(problems(validate, example.value)).toEqual([]);
    }
  });

  it('states the retry schedule the server uses when the operator sets nothing', () => {
    expect(loadConfig({}).webhooks.retryDelaySeconds).toBe(DEFAULT_RETRY_DELAY_SECONDS);
  });
});

describe.each(engines)('webhook events as the service sends them on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let stripe: FakeStripe;
  let slack: FakeChat;
  let checked = 0;
  /** What the received events were: their types, and for some the kind (monitor.health) or the reason. */
  const seen = new Set<string>();

  beforeAll(async () => {
    // One page per listing and cycle, so a burst of posts leaves a gap (a monitor.health event).
    // Credits sold through a fake Stripe, for the failed auto top-up (credits.topup_failed).
    stripe = await startFakeStripe();
    const billing = {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      CREDIT_PACKS: '500:5.00',
      PUBLIC_URL: 'http://127.0.0.1:9',
    };
    // A Slack whose webhooks can be removed, for the destination switched off (destination.off).
    slack = await startFakeSlack();
    const chat = { bases: { slack: [slack.url], discord: [slack.url] }, timeoutMs: 2000 };
    ({ app, clock } = await startMonitorsApp(engine, { env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true', MONITOR_MAX_PAGES_PER_CYCLE: '1', ...billing }, overrides: { chat } }));
    stripe.webhookUrl = `${app.url}/webhooks/stripe`;
    // Near real time: receivers (standardwebhooks here) refuse a webhook-timestamp more than 5 minutes off.
    clock.set(new Date(Date.now() - 120_000).toISOString());
    // Stripe signs with the same clock the app checks its signatures against.
    stripe.now = () => clock.seconds();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
    await stripe.close();
    await slack.close();
  });

  /**
   * Runs every queued delivery as the worker would (one attempt each), then checks what reached the
   * receiver since the last call: the three headers as the section describes them, the signature with
   * the account's secret, and the body against its event's schema. Returns the bodies.
   */
  async function deliverAndCheck(): Promise<{ type: string; data: Record<string, unknown> }[]> {
    const pending = await app.database.db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').execute();
    for (const { id } of pending) await app.services.webhooks.deliver(id);
    const fresh = receiver.received.slice(checked);
    checked = receiver.received.length;
    const bodies: { type: string; data: Record<string, unknown> }[] = [];
    for (const { headers, body } of fresh) {
      expect(headers['content-type']).toBe('application/json');
      const delivery = await app.database.db
        .selectFrom('webhook_deliveries')
        .select(['account_id', 'event_type'])
        .where('id', '=', String(headers['webhook-id']))
        .executeTakeFirstOrThrow();
      for (const parameter of operation(delivery.event_type).parameters) {
        expect([parameter.name, problems(validatorFor(parameter.schema), headers[parameter.name])]).toEqual([parameter.name, []]);
      }
      const secret = await app.services.webhooks.secretFor(delivery.account_id);
      const payload = new Webhook(secret).verify(body, headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
      expect(payload.type).toBe(delivery.event_type);
      expect({ payload, problems: problems(bodyValidator(payload.type), payload) }).toEqual({ payload, problems: [] });
      seen.add(payload.type);
      bodies.push(payload);
    }
    return bodies;
  }

  const typesOf = (bodies: { type: string }[]) => [...new Set(bodies.map((b) => b.type))].sort();

  it('scrape.completed and scrape.failed are signed and match their schemas', async () => {
    const { token } = await app.accountWithKey(10);
    app.reddit.addPost({ subreddit: 'node', title: 'retrying webhooks', created_utc: clock.seconds() - 60 });
    const body = { subreddits: ['r/node'], keywords: ['webhooks'], webhook_url: receiver.url };
    const submit = async () => {
      const response = await app.api('POST', '/api/v1/scrape', { token, body, headers: { prefer: 'respond-async' } });
      expect(response.status).toBe(202);
      await app.services.scrapeRunner.run(((await response.json()) as { id: string }).id);
    };
    await submit();
    app.reddit.failAlways(503);
    try {
      await submit();
    } finally {
      app.reddit.failAlways(null);
    }
    const bodies = await deliverAndCheck();
    expect(typesOf(bodies)).toEqual(['scrape.completed', 'scrape.failed']);
    expect(bodies.find((b) => b.type === 'scrape.completed')!.data.results).toHaveLength(1);
  });

  /** `count` posts mentioning `word` in r/`subreddit`, a second apart, then one cycle. */
  async function postsThenCycle(subreddit: string, word: string, count: number) {
    clock.advance(5);
    for (let i = 0; i < count; i++) app.reddit.addPost({ subreddit, title: `${word} number ${i}`, created_utc: clock.seconds() - count + i });
    clock.advance(5);
    await cycle(app);
  }

  it('monitor.matches, monitor.paused for either reason and monitor.resumed are signed and match their schemas', async () => {
    const capped = await app.accountWithKey(100);
    await createMonitor(app, capped.token, { subreddits: ['r/capped'], keywords: ['otter'], max_matches_per_day: 1, webhook_url: receiver.url });
    const broke = await app.accountWithKey(0);
    await createMonitor(app, broke.token, { subreddits: ['r/broke'], keywords: ['otter'], webhook_url: receiver.url });
    for (const name of ['capped', 'broke']) app.reddit.subreddits.set(name, 'public');
    await cycle(app);
    await postsThenCycle('capped', 'otter', 2);
    await postsThenCycle('broke', 'otter', 2);
    await app.services.credits.grant(broke.accountId, 10);
    await postsThenCycle('broke', 'unrelated', 1);

    const bodies = await deliverAndCheck();
    // r/broke's listing ends before the poller's mark (it is that young), which reads as a gap: a monitor.health, checked all the same.
    expect(typesOf(bodies)).toEqual(expect.arrayContaining(['monitor.matches', 'monitor.paused', 'monitor.resumed']));
    const reasons = bodies.filter((b) => b.type === 'monitor.paused').map((b) => b.data.reason);
    expect([...new Set(reasons)].sort()).toEqual(['daily_cap', 'insufficient_credits']);
  });

  it('monitor.health of each kind (a subreddit, a gap, the Reddit app) is signed and matches its schema', async () => {
    const { token } = await app.accountWithKey(1000);
    app.reddit.subreddits.set('bursty', 'public');
    app.reddit.subreddits.set('gone', 'private');
    await createMonitor(app, token, { subreddits: ['r/bursty', 'r/gone'], keywords: ['launch'], webhook_url: receiver.url });
    await cycle(app);
    // More than one page of new posts: the older ones are left as a gap.
    clock.advance(5);
    for (let i = 0; i < 130; i++) app.reddit.addPost({ subreddit: 'bursty', title: `launch ${i}`, created_utc: clock.seconds() + i });
    clock.advance(135);
    await cycle(app);
    app.reddit.failAlways(503);
    try {
      clock.advance(5);
      await cycle(app);
    } finally {
      app.reddit.failAlways(null);
    }

    const kinds = (await deliverAndCheck())
      .filter((b) => b.type === 'monitor.health')
      .map((b) => ['subreddit', 'gap', 'reddit'].find((key) => key in b.data));
    expect([...new Set(kinds)].sort()).toEqual(['gap', 'reddit', 'subreddit']);
  });

  it('credits.low and webhook.test are signed and match their schemas', async () => {
    const { accountId } = await app.accountWithKey(10);
    await app.services.accountSettings.setWebhookUrl(accountId, receiver.url);
    await app.services.accountSettings.setLowBalanceThreshold(accountId, 20);
    await app.services.lowBalanceAlerts.flush();
    await app.services.webhooks.sendTest(accountId, receiver.url);
    const bodies = await deliverAndCheck();
    expect(typesOf(bodies)).toEqual(['credits.low', 'webhook.test']);
  });

  it('credits.topup_failed is signed and matches its schema', async () => {
    const { accountId } = await app.accountWithKey(0);
    await app.services.accountSettings.setWebhookUrl(accountId, receiver.url);
    // The pack bought at a Checkout saves the card; 500 credits stay below the threshold of 1000.
    const topup = { threshold: 1000, packCredits: 500, monthlyMax: 3 };
    const { checkoutUrl } = await app.services.billing.autoTopup.configure(accountId, topup, { via: 'api' });
    const session = stripe.complete(checkoutUrl!.split('/').pop()!);
    await stripe.settled();
    const intent = stripe.object<PaymentIntent>(String(session.payment_intent))!;
    stripe.savedCardBehaviour(String(intent.payment_method), 'declined');
    await app.services.billing.autoTopup.flush();
    const bodies = await deliverAndCheck();
    expect(typesOf(bodies)).toEqual(['credits.topup_failed']);
    expect(bodies[0]!.data).toMatchObject({ credits: 500, code: 'card_declined', failures_in_a_row: 1, auto_topup_disabled: true });
  });

  it('destination.off is signed and matches its schema', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    await app.services.accountSettings.setWebhookUrl(accountId, receiver.url);
    const url = slack.newWebhook();
    const { id } = (await (await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'slack', name: '#leads', url } })).json()) as { id: string };
    await app.api('POST', `/api/v1/destinations/${id}/test`, { token, body: {} });
    slack.remove(url);
    await app.services.destinations.drain(id);
    const bodies = await deliverAndCheck();
    expect(typesOf(bodies)).toEqual(['destination.off']);
    expect(bodies[0]!.data).toMatchObject({ destination_id: id, kind: 'slack', name: '#leads' });
  });

  it('every event type the code can send was received and checked above', () => {
    expect([...seen].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });
});
