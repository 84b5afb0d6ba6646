/**
 * Core benchmark (issue 3): autocannon against /healthz, an authenticated GET /api/v1/balance, the
 * 401 path and the 402 path, on one `subpilot serve` process over SQLite, in one run. Prints req/s
 * and each scenario's ratio to /healthz; the target is a ratio of at least 0.85.
 * Usage: npm run bench [-- --seconds 10 --connections 50]
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/app/config.ts';
import { createServices } from '../src/app/container.ts';
import { measure, printTable, startServer, tempSqliteUrl, type Scenario } from './support.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const env = { DATABASE_URL: tempSqliteUrl() };
const services = await createServices(loadConfig(env), { reddit: null });
const rich = await services.accounts.createAccount('rich@bench.local');
await services.credits.grant(rich.id, 1_000_000, 'bench');
const { token: richToken } = await services.keys.createKey(rich.id, 'bench');
const broke = await services.accounts.createAccount('broke@bench.local');
const { token: brokeToken } = await services.keys.createKey(broke.id, 'bench');
await services.close();

// Reddit credentials pointing nowhere: the 402 path never reaches Reddit, it stops at the balance.
const { url, child } = await startServer({ ...env, REDDIT_CLIENT_ID: 'bench', REDDIT_CLIENT_SECRET: 'bench', REDDIT_API_URL: 'http://127.0.0.1:9' });
const scrapeBody = JSON.stringify({ subreddits: ['r/node'], keywords: ['bench'] });
const scenarios: Scenario[] = [
  { name: 'GET /healthz', path: '/healthz', expectStatus: 200 },
  { name: 'GET /api/v1/balance (200)', path: '/api/v1/balance', headers: { authorization: `Bearer ${richToken}` }, expectStatus: 200 },
  { name: 'GET /api/v1/balance, unknown key (401)', path: '/api/v1/balance', headers: { authorization: `Bearer ak_live_${'0'.repeat(64)}` }, expectStatus: 401 },
  {
    name: 'POST /api/v1/scrape, no credits (402)',
    method: 'POST',
    path: '/api/v1/scrape',
    headers: { authorization: `Bearer ${brokeToken}`, 'content-type': 'application/json' },
    body: scrapeBody,
    expectStatus: 402,
  },
];

try {
  process.stdout.write(`subpilot core benchmark: SQLite, 1 process, ${connections} connections, ${seconds} s per scenario\n`);
  await measure(url, scenarios[0]!, 2, connections); // warm-up
  const rows: Awaited<ReturnType<typeof measure>>[] = [];
  for (const scenario of scenarios) rows.push(await measure(url, scenario, seconds, connections));
  printTable(rows, rows[0]!.rps);
  const worst = Math.min(...rows.slice(1).map((r) => r.rps / rows[0]!.rps));
  process.stdout.write(`\nlowest ratio ${worst.toFixed(2)} (target ≥ 0.85): ${worst >= 0.85 ? 'met' : 'NOT met'}\n`);
} finally {
  child.kill('SIGTERM');
}
