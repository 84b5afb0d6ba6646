/**
 * MCP benchmark: the time of a tool call against the API call it wraps, in one run on one server
 * (SQLite, one process). Each MCP call is a full POST /mcp through the SDK's client (key lookup, a
 * fresh server instance from the factory, scope, rate limit, arguments, the usecase); the API call
 * is the same usecase behind the same key check. Target: a tool call costs at most 3 API calls.
 * Usage: npm run bench:mcp [-- --calls 500]
 */
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { loadConfig } from '../src/shared/config/config.ts';
import { createServices } from '../src/app/container.ts';
import { seedAccounts, startServer, tempSqliteUrl } from './support.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '500' } } });
const calls = Number(values.calls);
const TARGET_RATIO = 3;

const env = { DATABASE_URL: tempSqliteUrl() };
const seeded = await createServices(loadConfig(env), { reddit: null });
const { rich: token } = await seedAccounts(seeded);
await seeded.close();
const { url, child } = await startServer(env);

/** Mean milliseconds per call of `call`, run `calls` times one after another, after a warm-up. */
async function timed(call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await call();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await call();
  return (performance.now() - started) / calls;
}

async function connect(mode: 'legacy' | { pin: '2026-07-28' }) {
  const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

try {
  const headers = { authorization: `Bearer ${token}` };
  const api = {
    balance: await timed(async () => (await fetch(`${url}/api/v1/balance`, { headers })).json()),
    monitors: await timed(async () => (await fetch(`${url}/api/v1/monitors`, { headers })).json()),
  };
  const rows: [string, number, number][] = [];
  for (const [era, mode] of [['2026-07-28', { pin: '2026-07-28' as const }], ['2025-11-25', 'legacy' as const]] as const) {
    const client = await connect(mode);
    rows.push([`get_balance (${era})`, await timed(() => client.callTool({ name: 'get_balance', arguments: {} })), api.balance]);
    rows.push([`list_monitors (${era})`, await timed(() => client.callTool({ name: 'list_monitors', arguments: {} })), api.monitors]);
    rows.push([`tools/list (${era})`, await timed(() => client.listTools()), api.balance]);
    await client.close();
  }
  process.stdout.write(`subpilot MCP benchmark: SQLite, 1 process, ${calls} sequential calls each\n\n`);
  process.stdout.write(`${'call'.padEnd(26)}  ms/call  API ms/call  ratio\n`);
  let worst = 0;
  for (const [name, ms, apiMs] of rows) {
    worst = Math.max(worst, ms / apiMs);
    process.stdout.write(`${name.padEnd(26)}  ${ms.toFixed(2).padStart(7)}  ${apiMs.toFixed(2).padStart(11)}  ${(ms / apiMs).toFixed(2).padStart(5)}\n`);
  }
  process.stdout.write(`\nworst ratio ${worst.toFixed(2)} (target ≤ ${TARGET_RATIO}): ${worst <= TARGET_RATIO ? 'met' : 'MISSED'}\n`);
  if (worst > TARGET_RATIO) process.exitCode = 1;
} finally {
  child.kill('SIGTERM');
}
