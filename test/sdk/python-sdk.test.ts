import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { matchStore } from '../support/matches.ts';
import { createContract, type Contract } from '../support/openapi-contract.ts';
import { CONTRACT_CHAT_BASE, startMainApp, type MainApp } from '../support/openapi-contract-apps.ts';
import type { ConnectedAccount } from '../support/publishing.ts';
import { packPythonSdk, writeReadmeExamples, type PythonSdk } from '../support/python-sdk.ts';
import { eventually, startReceiver } from '../support/receiver.ts';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.ts';

/*
 * The Python SDK (sdk/python) as a reader installs it, run by python3 against the real server on each
 * engine: the scripts of sdk/python/tests check what the client sees, this file what the server did.
 */
let sdk: PythonSdk;
beforeAll(async () => {
  sdk = await packPythonSdk();
}, 60_000);
afterAll(() => sdk?.remove());

describe.each(engines)('the Python SDK against a real server on %s', (engine) => {
  let app: MainApp;
  let proxy: RecordingProxy;
  let contract: Contract;
  let rich: ConnectedAccount;
  let store: ReturnType<typeof matchStore>;

  beforeAll(async () => {
    app = await startMainApp(engine);
    // The scripts talk to the server through this relay, which records every exchange and can lose an answer.
    proxy = await startRecordingProxy(app.url);
    contract = createContract(await (await fetch(`${app.url}/openapi.json`)).json());
    app.reddit.posts.push({ id: 'c1', subreddit: 'node', title: 'a question for the sdk', created_utc: Math.floor(Date.now() / 1000) });
    rich = await app.connectedAccount(1_000_000);
    store = matchStore(app.services.db);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await app?.close();
  });

  const client = (token: string, env: Record<string, string> = {}) => ({ SUBPILOT_API_KEY: token, BASE_URL: proxy.url, ...env });

  async function newMonitor(token: string): Promise<string> {
    const response = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'Seeded', subreddits: ['r/node'], keywords: ['seeded'] } });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  it('calls every operation of the document once, through the method named after it, each answered as the document says', async () => {
    const monitor = await newMonitor(rich.token);
    await store(monitor, rich.accountId, 1);
    const from = proxy.exchanges.length;
    await sdk.python(
      'test_operations.py',
      client(rich.token, { MONITOR_ID: monitor, REPLY_TO: 't3_c1', COMMENT_PARENT: 't3_sdk1', CHAT_URL: `${CONTRACT_CHAT_BASE}/api/webhooks/1/sdk` }),
    );
    const calls = new Map<string, number>();
    const issues: string[] = [];
    for (const exchange of proxy.exchanges.slice(from)) {
      const [op] = contract.operationsOf(exchange.method, exchange.target).filter((candidate) => candidate.method === exchange.method);
      if (!op) {
        issues.push(`no operation answers ${exchange.method} ${exchange.target}`);
        continue;
      }
      calls.set(op.id, (calls.get(op.id) ?? 0) + 1);
      if (exchange.status >= 400) issues.push(`${op.id} answered ${exchange.status}: ${exchange.body.slice(0, 300)}`);
      issues.push(...contract.check(exchange, op).map((issue) => `${op.id}: ${issue}`));
    }
    expect(issues).toEqual([]);
    const everyOperation = contract.operations.filter((op) => op.method !== 'HEAD').map((op) => op.id);
    expect(Object.fromEntries(calls)).toEqual(Object.fromEntries(everyOperation.map((id) => [id, 1])));
  }, 120_000);

  it('sends a scrape whose answer was lost again with the same Idempotency-Key, and it is charged once (ledger = balance)', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    proxy.dropAnswer((method, target) => method === 'POST' && target === '/api/v1/scrape');
    const from = proxy.exchanges.length;
    const { reports } = await sdk.python('test_lost_answer.py', client(token));
    const posts = proxy.exchanges.slice(from).filter((exchange) => exchange.method === 'POST');
    expect(posts.map((exchange) => [exchange.status, exchange.dropped, exchange.headers['idempotent-replayed']])).toEqual([
      [200, true, undefined],
      [200, false, 'true'],
    ]);
    const [key] = reports.map((report) => report.idempotency_key);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts.map((exchange) => exchange.requestHeaders['idempotency-key'])).toEqual([key, key]);
    const charges = await app.services.db
      .selectFrom('credit_ledger')
      .select('amount')
      .where('account_id', '=', accountId)
      .where('scrape_id', '=', reports[0]!.scrape_id!)
      .execute();
    expect(charges.map((charge) => Number(charge.amount))).toEqual([-1]);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(9);
    expect(await ledgerSum(app.services.db, accountId)).toBe(9);
  }, 120_000);

  it('pages over 250 matches: each once, newest first by cursor and in the inbox, oldest first after a match', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    const monitor = await newMonitor(token);
    const stored = await store(monitor, accountId, 250);
    const from = proxy.exchanges.length;
    await sdk.python('test_paging.py', client(token, { MONITOR_ID: monitor, MATCH_IDS: stored.join(',') }));
    const pages = proxy.exchanges
      .slice(from)
      .map((exchange) => new URL(exchange.target, proxy.url))
      .filter((url) => url.pathname.endsWith('/matches'))
      .map((url) => url.searchParams);
    // 100 a page: three pages by cursor (the first without one), three after the oldest (100, 100, 49), one after the newest.
    const kinds = pages.map((query) => (query.has('after') ? 'after' : query.has('cursor') ? 'cursor' : 'first'));
    expect(kinds.sort()).toEqual(['after', 'after', 'after', 'after', 'cursor', 'cursor', 'first']);
  }, 120_000);

  it('verify_webhook accepts the deliveries the server signed, before and after a roll of the secret, and refuses them changed', async () => {
    const receiver = await startReceiver();
    try {
      const { accountId, token } = await app.accountWithKey(10);
      const scrape = async () => {
        const body = { subreddits: ['r/node'], keywords: ['hook'], webhook_url: receiver.url };
        return ((await (await app.api('POST', '/api/v1/scrape', { token, body })).json()) as { id: string }).id;
      };
      const first = await scrape();
      await eventually(() => receiver.received.length >= 1 || undefined);
      const oldSecret = await app.services.webhooks.secretFor(accountId);
      await app.services.webhooks.rollSecret(accountId);
      await scrape();
      await eventually(() => receiver.received.length >= 2 || undefined);
      const deliveries = join(sdk.root, `deliveries-${engine}.json`);
      writeFileSync(deliveries, JSON.stringify(receiver.received.map(({ headers, body }) => ({ headers, body: Buffer.from(body).toString('base64') }))));
      await sdk.python('test_webhooks.py', {
        DELIVERIES: deliveries,
        WEBHOOK_SECRET: await app.services.webhooks.secretFor(accountId),
        OLD_WEBHOOK_SECRET: oldSecret,
        SCRAPE_ID: first,
      });
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('runs the examples of sdk/python/README.md: a scrape and its cost, a refusal for credits, a matches reader, a webhook receiver', async () => {
    const dir = join(sdk.root, `readme-${engine}`);
    expect(writeReadmeExamples(dir).sort()).toEqual(['sdk-errors.py', 'sdk-matches.py', 'sdk-quickstart.py', 'sdk-receiver.py']);
    const example = (name: string) => join(dir, name);
    app.reddit.posts.push({ id: 'k1', subreddit: 'node', title: 'kysely or drizzle?', created_utc: Math.floor(Date.now() / 1000) - 60 });

    const { stdout: quickstart } = await sdk.python(example('sdk-quickstart.py'), client((await app.accountWithKey(10)).token));
    expect(quickstart).toMatch(/kysely or drizzle\?  https:\/\/www\.reddit\.com\/r\/node\//);
    expect(quickstart).toContain('charged 1 credits, 9 left');
    const { stdout: refused } = await sdk.python(example('sdk-errors.py'), client((await app.accountWithKey(2)).token));
    expect(refused).toMatch(/^needs 3 credits, has 2: /);

    const reader = await app.accountWithKey(0);
    const monitor = await newMonitor(reader.token);
    const work = join(dir, 'reader');
    mkdirSync(work);
    const read = async () => (await sdk.python(example('sdk-matches.py'), client(reader.token, { MONITOR_ID: monitor }), work)).stdout.split('\n').filter(Boolean).map((line) => line.split('  ')[0]);
    const backlog = await store(monitor, reader.accountId, 3);
    expect(await read()).toEqual(backlog);
    const later = await store(monitor, reader.accountId, 2);
    expect(await read()).toEqual(later);

    const hooks = await app.accountWithKey(10);
    const receiver = await sdk.serve(example('sdk-receiver.py'), { WEBHOOK_SECRET: await app.services.webhooks.secretFor(hooks.accountId) });
    try {
      const body = { subreddits: ['r/node'], keywords: ['hook'], webhook_url: `${receiver.url}/hooks/subpilot` };
      expect((await app.api('POST', '/api/v1/scrape', { token: hooks.token, body })).status).toBe(200);
      expect(await eventually(() => receiver.lines()[0])).toMatch(/^scrape\.completed msg_\w+$/);
      const forged = { 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,Zm9yZ2Vk' };
      expect((await fetch(receiver.url, { method: 'POST', headers: forged, body: '{}' })).status).toBe(400);
    } finally {
      receiver.stop();
    }
  }, 120_000);
});

describe.each(engines)('the Python SDK against a server that allows one call a minute per key, on %s', (engine) => {
  let app: TestApp;
  let control: Server;
  // Two seconds before the minute ends, so the second call of the minute is told Retry-After: 2.
  let now = Date.parse('2026-03-01T12:00:58Z');

  beforeAll(async () => {
    app = await startTestApp(engine, { env: { RATE_LIMIT_PER_MINUTE: '1' }, overrides: { clock: () => new Date(now) }, worker: false });
    // The client's sleep moves the server's clock by what it was asked to wait: no real waiting.
    control = createServer((req, res) => {
      now += Number(new URL(req.url ?? '/', 'http://control').searchParams.get('seconds')) * 1000;
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => control?.close(resolve));
    await app?.close();
  });

  it('waits the 2 s a 429 asks for (Retry-After: 2) and retries once; a longer wait than allowed is raised', async () => {
    const [first, other] = [await app.accountWithKey(5), await app.accountWithKey(5)];
    await sdk.python('test_rate_limit.py', {
      SUBPILOT_API_KEY: first.token,
      OTHER_KEY: other.token,
      BASE_URL: app.url,
      CLOCK_URL: `http://127.0.0.1:${(control.address() as AddressInfo).port}/advance`,
    });
    expect(now).toBe(Date.parse('2026-03-01T12:01:00Z'));
  }, 120_000);
});
