import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { runCliProcess } from '../support/cli.ts';
import { ledgerSum } from '../support/ledger.ts';
import type { ToolOutcome } from '../support/mcp.ts';

const bin = resolve('bin/subpilot.mjs');

/** What Claude Desktop and other stdio-only clients do: start `subpilot mcp` and talk over its standard streams. */
async function bridged(url: string, key: string, mode: 'legacy' | 'auto') {
  const client = new Client({ name: 'stdio-host', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--url', url],
      env: { ...(process.env as Record<string, string>), SUBPILOT_API_KEY: key, LOG_LEVEL: 'silent' },
      stderr: 'pipe',
    }),
  );
  return client;
}

// One engine: the bridge is a client of the HTTP endpoint, whose engines its own suites cover.
describe('subpilot mcp, the stdio bridge', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite');
    app.reddit.posts.push({ id: 'br1', subreddit: 'node', title: 'A bridge to the server', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  it.each(['legacy', 'auto'] as const)('relays tools/list and tools/call to /mcp with the key from SUBPILOT_API_KEY (%s client)', async (mode) => {
    const { token, accountId } = await app.accountWithKey(10);
    const client = await bridged(app.url, token, mode);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        'search_reddit', 'get_scrape', 'get_monitor_matches', 'create_monitor', 'list_monitors',
        'update_monitor', 'list_destinations', 'route_monitor_alerts', 'list_inbox', 'draft_reply', 'generate_draft', 'publish', 'get_balance', 'list_usage',
      ]);
      const scrape = (await client.callTool({ name: 'search_reddit', arguments: { subreddits: ['r/node'], keywords: ['bridge'] } })) as ToolOutcome;
      expect(scrape.structuredContent).toMatchObject({ status: 'completed', credits: { charged: 1, balance: 9 } });
      const refused = (await client.callTool({ name: 'get_scrape', arguments: { id: 'scr_nope' } })) as ToolOutcome;
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toMatch(/\(code scrape\.not_found\)$/);
      expect(await ledgerSum(app.services.db, accountId)).toBe(9);
    } finally {
      await client.close();
    }
  });

  it('refuses to start without SUBPILOT_API_KEY, with a key the server refuses, or towards plain http elsewhere', async () => {
    const noKey = await runCliProcess(['mcp', '--url', app.url], { SUBPILOT_API_KEY: undefined });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/^subpilot: set SUBPILOT_API_KEY/);
    const wrongKey = await runCliProcess(['mcp', '--url', app.url], { SUBPILOT_API_KEY: `ak_live_${'0'.repeat(64)}` });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/^subpilot: could not connect to http:\/\/127\.0\.0\.1:\d+\/mcp: .*401/);
    const plain = await runCliProcess(['mcp', '--url', 'http://subpilot.example.com'], { SUBPILOT_API_KEY: 'ak_live_x' });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/--url must use https/);
  });
});
