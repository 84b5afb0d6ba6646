import { request as httpRequest } from 'node:http';
import type { FetchLike } from '@modelcontextprotocol/client';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/app/container.ts';
import { buildServer } from '../../src/app/server.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { pinnedClock } from '../support/monitors.ts';
import { ledgerSum } from '../support/ledger.ts';
import { serverWithLogs } from '../support/logged-server.ts';
import { callTool, mcpClient, textOf } from '../support/mcp.ts';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A POST to /mcp with exactly these headers (fetch would not send another Host); a string body is sent as it is. */
function post(url: string, headers: Record<string, string>, body: unknown = INITIALIZE) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest(
      new URL('/mcp', url),
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let data = '';
        res.on('data', (chunk) => (data += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: data }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe.each(engines)('/mcp keys, hosts and instances on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { RATE_LIMIT_PER_MINUTE: '5', LOG_LEVEL: 'info' } });
    app.reddit.posts.push({ id: 'tr1', subreddit: 'node', title: 'Two instances', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  it('a wrong key gets the API\'s 401 problem and Bearer challenge, without resource_metadata; no key gets the bare challenge', async () => {
    const wrong = await post(app.url, { authorization: `Bearer ak_live_${'0'.repeat(64)}` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(wrong.body)).toMatchObject({ status: 401, code: 'auth.invalid_key' });
    expect(wrong.headers['www-authenticate']).toBe('Bearer realm="subpilot", error="invalid_token"');
    const none = await post(app.url, {});
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="subpilot"');
    await expect(mcpClient(app.url, `ak_live_${'0'.repeat(64)}`)).rejects.toThrow(/401/);
  });

  it('GET and DELETE answer 405 with a key (no sessions to stream to or end), 401 without one', async () => {
    const { token } = await app.accountWithKey(0);
    for (const method of ['GET', 'DELETE']) {
      expect((await fetch(`${app.url}/mcp`, { method, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } })).status, method).toBe(405);
      expect((await fetch(`${app.url}/mcp`, { method })).status, method).toBe(401);
    }
  });

  it('a key in the URL is refused as by the API, never used', async () => {
    const { token } = await app.accountWithKey(0);
    const response = await fetch(`${app.url}/mcp?api_key=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(INITIALIZE) });
    expect(response.status).toBe(401);
    expect(JSON.stringify(await response.json())).not.toContain(token);
  });

  it('a revoked key is refused on the very next call, and so is an expired one', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const client = await mcpClient(app.url, token);
    expect((await callTool(client, 'get_balance')).structuredContent).toEqual({ balance: 10, owed: 0 });
    await app.services.keys.revokeKey(accountId, { prefix: token.slice(0, 16) });
    await expect(callTool(client, 'get_balance')).rejects.toThrow(/401/);
    await client.close();

    const { token: second } = await app.accountWithKey(10);
    const other = await mcpClient(app.url, second, 'legacy');
    expect((await callTool(other, 'get_balance')).isError).toBeFalsy();
    await app.database.db.updateTable('api_keys').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('prefix', '=', second.slice(0, 16)).execute();
    await expect(callTool(other, 'get_balance')).rejects.toThrow(/401/);
    await other.close();
  });

  it('answers only for its own host names: another Host or a foreign Origin is a 403 problem, a local Origin passes', async () => {
    const { token } = await app.accountWithKey(0);
    const authorization = `Bearer ${token}`;
    const rebound = await post(app.url, { authorization, host: 'attacker.example' });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).code).toBe('mcp.host_not_allowed');
    const foreign = await post(app.url, { authorization, origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).code).toBe('mcp.origin_not_allowed');
    const local = await post(app.url, { authorization, origin: 'http://localhost:6274' });
    expect(local.status).toBe(200);
  });

  it('OAuth discovery finds no metadata: a 404 saying to send the API key, at the root and for /mcp', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server']) {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status, path).toBe(404);
      const problem = await response.json();
      expect(problem.code).toBe('mcp.no_oauth');
      expect(problem.detail).toContain('Authorization: Bearer');
    }
  });

  it('the rate limit applies per tool call as to the API: past it a tool error with the 429 detail, nothing charged', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const client = await mcpClient(app.url, token);
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push(await callTool(client, 'get_balance'));
    expect(outcomes.slice(0, 5).every((o) => !o.isError)).toBe(true);
    expect(outcomes[5]!.isError).toBe(true);
    expect(outcomes[5]!.structuredContent).toMatchObject({ status: 429, code: 'rate_limit.exceeded', policy: 'per-key' });
    expect(textOf(outcomes[5]!)).toMatch(/more than 5 requests this minute.*\(code rate_limit\.exceeded\)$/);
    expect(await ledgerSum(app.services.db, accountId)).toBe(10);
    await client.close();
  });

  it('tools/list counts against the rate limit like a tool call: past it, a JSON-RPC error in our words', async () => {
    // A pinned clock: the limit counts in minutes of the clock, and a minute ending mid-test would let the sixth through.
    const pinned = await startTestApp(engine, { env: { RATE_LIMIT_PER_MINUTE: '5' }, overrides: { clock: pinnedClock().now } });
    try {
      const { token } = await pinned.accountWithKey(0);
      // Raw requests: the SDK's client keeps the list for the hour the server allows, and would not ask again.
      const list = { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} };
      const headers = { authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-11-25' };
      // The answer comes as one server-sent event: its data line is the JSON-RPC message.
      const rpc = async () => JSON.parse(/^data: (.*)$/m.exec((await post(pinned.url, headers, list)).body)![1]!);
      for (let i = 0; i < 5; i++) expect((await rpc()).result.tools).toHaveLength(14);
      const refused = await rpc();
      expect(refused.error.message).toMatch(/more than 5 requests this minute.*\(code rate_limit\.exceeded\)$/);
    } finally {
      await pinned.close();
    }
  });

  it('arguments nested thousands of levels deep are a 422 problem in words, logged, before the protocol library parses them', async () => {
    const { token } = await app.accountWithKey(0);
    // Written out: about 10 KB of brackets, more than JSON.stringify in a test worker can recurse through.
    const call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_balance","arguments":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}}`;
    const logged = await serverWithLogs(app);
    try {
      const answer = await post(logged.url, { authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-11-25' }, call);
      expect(answer.status).toBe(422);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'mcp.too_deep', detail: expect.stringMatching(/nested more than 32 levels/) });
      expect(logged.lines.some((line) => JSON.stringify(line).includes('mcp.too_deep'))).toBe(true);
    } finally {
      await logged.close();
    }
  });

  it('a body of 5 MB is answered 413 before the connection closes', async () => {
    const { token } = await app.accountWithKey(0);
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_balance', arguments: { padding: 'x'.repeat(5 * 1024 * 1024) } } };
    const answer = await post(app.url, { authorization: `Bearer ${token}` }, call);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413 });
  });

  it("a key's monthly credit limit applies: a tool error with the 402 detail, the ledger unchanged", async () => {
    const { accountId } = await app.accountWithKey(50);
    const { token } = await app.services.keys.createKey(accountId, 'capped', { monthlyCreditLimit: 2 });
    const client = await mcpClient(app.url, token);
    const refused = await callTool(client, 'search_reddit', { subreddits: ['r/node', 'r/typescript', 'r/javascript'], keywords: ['instances'] });
    expect(refused.structuredContent).toMatchObject({ status: 402, code: 'credits.key_limit_reached', limit: 2, required: 3 });
    expect(await ledgerSum(app.services.db, accountId)).toBe(50);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(50);
    await client.close();
  });

  it('logs each request and each tool call with the key prefix, never the key', async () => {
    const logged = await serverWithLogs(app);
    const { token } = await app.accountWithKey(0);
    const client = await mcpClient(logged.url, token);
    await callTool(client, 'get_balance');
    await callTool(client, 'publish', { type: 'comment', parent: 't3_tr1', body: 'hello' });
    await client.close();
    await logged.close();
    const prefix = token.slice(0, 16);
    const requests = logged.lines.filter((l) => l.msg === 'request' && l.route === '/mcp');
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(requests.every((l) => l.key_prefix === prefix && l.status === 200)).toBe(true);
    expect(logged.lines.filter((l) => l.msg.startsWith('mcp tool call')).map((l) => [l.tool, l.code])).toEqual([
      ['get_balance', undefined],
      ['publish', 'connections.not_configured'],
    ]);
    expect(logged.raw()).not.toContain(token.slice(16));
  });

  describe('behind a load balancer', () => {
    let otherServices: Services;
    let other: FastifyInstance;
    let otherUrl: string;
    beforeAll(async () => {
      // A second instance of the service on the same database, as a deployment with several has.
      otherServices = await createServices(app.services.config);
      other = await buildServer(otherServices, { logger: false });
      otherUrl = await other.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await other.close();
      await otherServices.close();
    });

    it('two instances answer one client in turn, each call by whichever gets it', async () => {
      const { token, accountId } = await app.accountWithKey(10);
      const served: string[] = [];
      let turn = 0;
      // Round robin, as a load balancer without sticky sessions sends requests.
      const balancer: FetchLike = (url, init) => {
        const target = [app.url, otherUrl][turn++ % 2]!;
        served.push(target);
        return fetch(new URL(new URL(url).pathname, target), init);
      };
      for (const era of ['legacy', 'modern'] as const) {
        const client = await mcpClient(app.url, token, era, balancer);
        const scrape = await callTool(client, 'search_reddit', { subreddits: ['r/node'], keywords: ['two instances'] });
        expect(scrape.structuredContent, textOf(scrape)).toMatchObject({ status: 'completed' });
        const again = await callTool(client, 'get_scrape', { id: scrape.structuredContent!.id });
        expect(again.structuredContent!.id).toBe(scrape.structuredContent!.id);
        await client.close();
      }
      expect(new Set(served)).toEqual(new Set([app.url, otherUrl]));
      expect(await ledgerSum(app.services.db, accountId)).toBe(8);
    });
  });
});
