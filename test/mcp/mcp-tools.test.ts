import type { Client } from '@modelcontextprotocol/client';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBillingApp } from '../support/billing.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { eventually } from '../support/receiver.ts';
import { matchStore } from '../support/matches.ts';
import { callTool, mcpClient, textOf, type Era } from '../support/mcp.ts';
import { PRICES, startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';

const TOOLS = [
  'search_reddit',
  'get_scrape',
  'get_monitor_matches',
  'create_monitor',
  'list_monitors',
  'update_monitor',
  'list_destinations',
  'route_monitor_alerts',
  'list_inbox',
  'draft_reply',
  'generate_draft',
  'publish',
  'get_balance',
  'list_usage',
];

const hoursAgo = (h: number) => Math.floor(Date.now() / 1000) - h * 3600;

describe.each(engines)('the MCP server at /mcp on %s', (engine) => {
  let app: PublishingApp;
  const accounts: ConnectedAccount[] = [];
  const clients: Client[] = [];
  // One store for the suite: it numbers the matches it makes, so two would make the same ids.
  let storeMatches: ReturnType<typeof matchStore>;

  beforeAll(async () => {
    // A short synchronous wait, so that one test can see a scrape outlast it.
    app = await startPublishingApp(engine, { env: { SCRAPE_SYNC_WAIT_MS: '1000' } });
    app.reddit.posts.push({ id: 'mcp1', subreddit: 'node', title: 'Which query builder for Postgres?', selftext: 'We use raw SQL.', created_utc: hoursAgo(1) });
    storeMatches = matchStore(app.services.db);
  });
  afterAll(() => app.close());
  // The ledger sums to the balance after every test, whatever the test did.
  afterEach(async () => {
    for (const account of accounts.splice(0)) expect(await ledgerSum(app.services.db, account.accountId)).toBe(await account.balance());
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  async function connected(balance: number, era: Era = 'modern', options: { connect?: boolean } = {}) {
    const account = await app.connectedAccount(balance, options);
    accounts.push(account);
    const client = await mcpClient(app.url, account.token, era);
    clients.push(client);
    return { account, client };
  }

  it('lists fourteen tools in a stable order, each with a valid JSON Schema of type object and a description naming its cost', async () => {
    const { client } = await connected(0);
    const first = await client.listTools();
    const second = await client.listTools();
    expect(first.tools.map((t) => t.name)).toEqual(TOOLS);
    expect(second.tools).toEqual(first.tools);
    const ajv = new Ajv2020({ strict: true });
    formats.default(ajv);
    for (const tool of first.tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(tool.description, tool.name).toMatch(/credit/);
    }
    // A model reads amounts, not the operator's variables, and a nullable field's description at the field.
    expect(JSON.stringify(first.tools)).not.toMatch(/PRICE_[A-Z]/);
    type Property = { description?: string; anyOf?: { description?: string }[]; items?: { description?: string } };
    const create = first.tools.find((t) => t.name === 'create_monitor')!.inputSchema.properties as Record<string, Property>;
    expect(create.intent!.description).toMatch(/for 1 credit\b/);
    expect(create.intent!.anyOf!.every((branch) => branch.description === undefined)).toBe(true);
    expect(create.subreddits!.items!.description).toContain('r/name, name, /r/name or a Reddit link');
  });

  it.each<Era>(['legacy', 'modern'])('answers every tool in the %s era, charging as the API does', async (era) => {
    const { account, client } = await connected(100, era);
    expect(client.getProtocolEra()).toBe(era);

    const scrape = await callTool(client, 'search_reddit', { subreddits: ['r/node'], keywords: ['query builder'] });
    expect(scrape.isError, textOf(scrape)).toBeFalsy();
    expect(scrape.structuredContent).toMatchObject({ status: 'completed', credits: { charged: 1 }, results_page: { offset: 0, total: 1, next_offset: null } });
    expect(textOf(scrape)).toContain('t3_mcp1');
    const scrapeId = scrape.structuredContent!.id as string;
    const again = await callTool(client, 'get_scrape', { id: scrapeId });
    expect((again.structuredContent!.results as { id: string }[]).map((r) => r.id)).toEqual(['t3_mcp1']);

    const monitor = await callTool(client, 'create_monitor', { name: 'Query builders', subreddits: ['r/node'], keywords: ['kysely'] });
    expect(monitor.structuredContent).toMatchObject({ name: 'Query builders', status: 'active' });
    const monitorId = monitor.structuredContent!.id as string;
    // Its charges, made later by the poller, will say the monitor came through MCP.
    expect((await app.services.db.selectFrom('monitors').select('via').where('id', '=', monitorId).executeTakeFirstOrThrow()).via).toBe('mcp');
    const list = await callTool(client, 'list_monitors');
    expect((list.structuredContent!.data as { id: string }[]).map((m) => m.id)).toEqual([monitorId]);
    const paused = await callTool(client, 'update_monitor', { id: monitorId, status: 'paused' });
    expect(paused.structuredContent).toMatchObject({ status: 'paused', paused_reason: 'user' });
    const none = await callTool(client, 'get_monitor_matches', { id: monitorId });
    expect(none.structuredContent).toMatchObject({ data: [], next_after: null });

    const [matchId] = await storeMatches(monitorId, account.accountId, 1);
    const inbox = await callTool(client, 'list_inbox', { monitor_id: monitorId });
    expect((inbox.structuredContent!.data as { id: string }[]).map((m) => m.id)).toEqual([matchId]);
    const reply = await callTool(client, 'draft_reply', { match_id: matchId });
    expect(reply.structuredContent).toMatchObject({ status: 'completed', match_id: matchId, credits: { charged: PRICES.generate } });
    const draft = await callTool(client, 'generate_draft', { type: 'reply', reply_to: 't3_mcp1', instructions: 'Suggest Kysely' });
    expect(draft.structuredContent).toMatchObject({ status: 'completed', credits: { charged: PRICES.generate } });
    const draftId = draft.structuredContent!.id as string;
    const posted = await callTool(client, 'publish', { generation_id: draftId, confirm: true });
    expect(posted.structuredContent, textOf(posted)).toMatchObject({ status: 'published', credits: { charged: PRICES.publish } });

    const balance = await callTool(client, 'get_balance');
    expect(balance.structuredContent).toEqual({ balance: 100 - 1 - 2 * PRICES.generate - PRICES.publish, owed: 0 });
    const usage = await callTool(client, 'list_usage', { limit: 4 });
    const entries = usage.structuredContent!.data as { amount: number; key: { prefix: string } | null; via: string | null }[];
    expect(entries.map((e) => [e.amount, e.via])).toEqual([[-PRICES.publish, 'mcp'], [-PRICES.generate, 'mcp'], [-PRICES.generate, 'mcp'], [-1, 'mcp']]);
    expect(entries.every((e) => account.token.startsWith(e.key!.prefix))).toBe(true);
  });

  it('a scrape that outlasts the wait answers with its id and credits held; get_scrape then has its results', async () => {
    const { client } = await connected(10);
    app.reddit.delayMs = 1500;
    try {
      const running = await callTool(client, 'search_reddit', { subreddits: ['r/node'], keywords: ['postgres'] });
      expect(running.structuredContent).toMatchObject({ status: expect.stringMatching(/^(queued|running)$/), results: [] });
      const id = running.structuredContent!.id as string;
      expect(textOf(running)).toContain(`Call get_scrape with id ${id}`);
      const done = await eventually(async () => {
        const polled = await callTool(client, 'get_scrape', { id });
        return polled.structuredContent!.status === 'completed' ? polled : undefined;
      });
      expect(done.structuredContent).toMatchObject({ credits: { charged: 1 }, results_page: { total: 1 } });
    } finally {
      app.reddit.delayMs = 0;
    }
  });

  it('a billable tool retried with the same idempotency_key answers with its first outcome and charges once; other arguments under the key are refused', async () => {
    const { account, client } = await connected(100);
    const comments = app.reddit.user.comments.length;
    // Each call, and the same call with one argument changed.
    const calls: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['search_reddit', { subreddits: ['r/node'], keywords: ['postgres'] }, { keywords: ['mysql'] }],
      ['generate_draft', { type: 'reply', reply_to: 't3_mcp1', instructions: 'Suggest Kysely' }, { instructions: 'Suggest Drizzle' }],
      ['publish', { type: 'comment', parent: 't3_mcp1', body: 'Kysely keeps your SQL typed.', confirm: true }, { body: 'Other words.' }],
    ];
    for (const [name, args, changed] of calls) {
      const key = `retry-${name}-${account.accountId}`;
      const first = await callTool(client, name, { ...args, idempotency_key: key });
      expect(first.isError, textOf(first)).toBeFalsy();
      const before = await account.balance();
      const again = await callTool(client, name, { ...args, idempotency_key: key });
      expect(again.structuredContent, name).toEqual(first.structuredContent);
      expect(await account.balance(), name).toBe(before);
      const other = await callTool(client, name, { ...args, ...changed, idempotency_key: key });
      expect(other.isError, name).toBe(true);
      expect(other.structuredContent, name).toMatchObject({ status: 422, code: name === 'publish' ? 'publish.idempotency_mismatch' : 'idempotency.key_reused' });
    }
    expect(app.reddit.user.comments.length).toBe(comments + 1);
    // One scrape pair, one draft, one reply: each once.
    expect(await account.balance()).toBe(100 - 1 - PRICES.generate - PRICES.publish);
  });

  it('an unknown tool is a protocol error naming the way to the tools', async () => {
    const { client } = await connected(0);
    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(/No tool is named "delete_everything"; tools\/list names them/);
  });

  it('publish without confirm shows what would be posted, where, as whom and the price; nothing is posted or charged', async () => {
    const { account, client } = await connected(30);
    const before = app.reddit.user.comments.length;
    const preview = await callTool(client, 'publish', { type: 'comment', parent: 't3_mcp1', body: 'Kysely is typed SQL.' });
    expect(preview.isError).toBeFalsy();
    expect(preview.structuredContent).toEqual({
      confirmed: false,
      would_publish: { type: 'comment', target: 't3_mcp1', title: null, body: 'Kysely is typed SQL.', generation_id: null, author: account.username, price: PRICES.publish, balance: 30 },
    });
    expect(textOf(preview)).toMatch(/^Nothing was posted or charged/);
    expect(app.reddit.user.comments.length).toBe(before);
    expect(await account.balance()).toBe(30);
  });

  it('a read-only key can list but not spend: publish is a tool error naming the scope, and nothing is charged', async () => {
    const account = await app.connectedAccount(30);
    accounts.push(account);
    const { token } = await app.services.keys.createKey(account.accountId, 'reader', { scopes: ['read'] });
    const client = await mcpClient(app.url, token);
    clients.push(client);
    expect((await callTool(client, 'get_balance')).structuredContent).toEqual({ balance: 30, owed: 0 });
    const refused = await callTool(client, 'publish', { type: 'comment', parent: 't3_mcp1', body: 'Hello', confirm: true });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ status: 403, code: 'auth.insufficient_scope', required_scope: 'publish' });
    expect(textOf(refused)).toMatch(/publish.*\(code auth\.insufficient_scope\)$/s);
    expect(await account.balance()).toBe(30);
  });

  it('too few credits is a tool error with the 402 detail and code; the ledger is unchanged', async () => {
    const { account, client } = await connected(PRICES.generate - 1);
    const refused = await callTool(client, 'generate_draft', { type: 'post', subreddit: 'r/node', instructions: 'Announce v2' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ status: 402, code: 'credits.insufficient', required: PRICES.generate });
    // This server sells no credits (no Stripe, no BILLING_CONTACT): the way to them is its operator.
    expect(textOf(refused)).toMatch(/ Ask the operator of this service for credits and try again\. \(code credits\.insufficient\)$/);
    expect(refused.structuredContent).not.toHaveProperty('buy_url');
    expect(await ledgerSum(app.services.db, account.accountId)).toBe(PRICES.generate - 1);
  });

  it('arguments the API would refuse are a tool error in the API\'s words, and nothing runs', async () => {
    const { client } = await connected(10);
    const refused = await callTool(client, 'search_reddit', { subreddits: ['r/node'], keywords: ['x'], sort: 'newest' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('The arguments are not valid: sort must be one of new, relevance, top (got "newest"). (code request.invalid)');
  });

  it('get_monitor_matches with after returns each match once, however often it is called', async () => {
    const { account, client } = await connected(0);
    const monitor = await callTool(client, 'create_monitor', { name: 'Once each', subreddits: ['r/node'], keywords: ['subpilot'] });
    const monitorId = monitor.structuredContent!.id as string;
    const seen: string[] = [];
    let after: string | undefined;
    const read = async () => {
      const page = await callTool(client, 'get_monitor_matches', { id: monitorId, limit: 2, ...(after ? { after } : {}) });
      seen.push(...(page.structuredContent!.data as { id: string }[]).map((m) => m.id));
      after = (page.structuredContent!.next_after as string | null) ?? after;
      return page.structuredContent!.has_more as boolean;
    };
    const first = await storeMatches(monitorId, account.accountId, 1);
    await read();
    const more = await storeMatches(monitorId, account.accountId, 5);
    while (await read());
    await read();
    expect(seen).toEqual([...first, ...more]);
  });

  it('a scrape too large for one result comes in parts under the size limit, each result exactly once', async () => {
    const long = 'query builder '.repeat(230);
    for (let i = 0; i < 40; i++) {
      app.reddit.posts.push({ id: `big${i}`, subreddit: 'bigsub', title: `Long post ${i}`, selftext: long, created_utc: hoursAgo(2) });
    }
    const { client } = await connected(10);
    const first = await callTool(client, 'search_reddit', { subreddits: ['r/bigsub'], keywords: ['query builder'] });
    const ids: string[] = [];
    let part = first;
    for (let parts = 1; ; parts++) {
      expect(JSON.stringify(part).length).toBeLessThan(62_000);
      ids.push(...(part.structuredContent!.results as { id: string }[]).map((r) => r.id));
      const next = (part.structuredContent!.results_page as { next_offset: number | null }).next_offset;
      if (next === null) {
        expect(parts).toBeGreaterThan(1);
        break;
      }
      expect(textOf(part)).toContain(`results_offset ${next}`);
      part = await callTool(client, 'get_scrape', { id: first.structuredContent!.id, results_offset: next });
    }
    expect(ids.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `t3_big${i}`).sort());
  });
});

describe.each(engines)('the MCP server of a service that sells credits, on %s', (engine) => {
  let billing: Awaited<ReturnType<typeof startBillingApp>>;
  beforeAll(async () => {
    billing = await startBillingApp(engine, { worker: false });
  });
  afterAll(() => billing.close());

  it('a refusal for credits ends as the API\'s does, with where to buy them, and carries buy_url', async () => {
    const { app } = billing;
    const { token } = await app.accountWithKey(0);
    const client = await mcpClient(app.url, token);
    try {
      const refused = await callTool(client, 'search_reddit', { subreddits: ['r/node'], keywords: ['kysely'] });
      const api = await (await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['kysely'] } })).json();
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ status: 402, code: 'credits.insufficient', buy_url: 'https://subpilot.example.com/dashboard/credits' });
      expect(textOf(refused)).toBe(`${api.detail} (code credits.insufficient)`);
      expect(api.detail).toMatch(/ Buy credits at https:\/\/subpilot\.example\.com\/dashboard\/credits and try again\.$/);
      expect(refused.structuredContent).toEqual(api);
    } finally {
      await client.close();
    }
  });
});
