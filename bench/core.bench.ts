/**
 * Core benchmark: autocannon against /healthz, an authenticated GET /api/v1/balance, the
 * 401 path and the 402 path, on one `subpilot serve` process over SQLite, in one run. Prints req/s
 * and each scenario's ratio to /healthz; the target is a ratio of at least 0.85.
 * Usage: npm run bench [-- --seconds 10 --connections 50]
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/shared/config/config.ts';
import { createServices } from '../src/app/container.ts';
import { coreScenarios, measure, printTable, seedAccounts, startServer, tempSqliteUrl } from './support.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const env = { DATABASE_URL: tempSqliteUrl() };
const services = await createServices(loadConfig(env), { reddit: null });
const tokens = await seedAccounts(services);
await services.close();

const { url, child } = await startServer(env);
try {
  process.stdout.write(`subpilot core benchmark: SQLite, 1 process, ${connections} connections, ${seconds} s per scenario\n`);
  const scenarios = coreScenarios(tokens);
  await measure([url], scenarios[0]!, 2, connections); // warm-up
  const rows: Awaited<ReturnType<typeof measure>>[] = [];
  for (const scenario of scenarios) rows.push(await measure([url], scenario, seconds, connections));
  printTable(rows, rows[0]!.rps);
  const worst = Math.min(...rows.slice(1).map((r) => r.rps / rows[0]!.rps));
  process.stdout.write(`\nlowest ratio ${worst.toFixed(2)} (target ≥ 0.85): ${worst >= 0.85 ? 'met' : 'NOT met'}\n`);
} finally {
  child.kill('SIGTERM');
}
