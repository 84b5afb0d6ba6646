/**
 * Scale-out benchmark: the core scenarios on PostgreSQL with two `serve --no-worker`
 * instances (load split evenly between them), next to the same scenarios on SQLite with one
 * process, in one run. Prints req/s and each PostgreSQL figure's ratio to its SQLite counterpart.
 * Needs TEST_DATABASE_URL (or BENCH_DATABASE_URL) pointing at a PostgreSQL database it may write to.
 * Rate-limit counters live in PostgreSQL unless BENCH_REDIS_URL is set (then in Redis).
 * Usage: npm run bench:scale [-- --seconds 10 --connections 50]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/shared/config/config.ts';
import { createServices } from '../src/app/container.ts';
import { coreScenarios, measure, seedAccounts, startServer, tempSqliteUrl } from './support.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!pgUrl) {
  process.stderr.write('bench:scale needs TEST_DATABASE_URL or BENCH_DATABASE_URL (a PostgreSQL URL)\n');
  process.exit(2);
}

const schema = `bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: pgUrl });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);
const pgWithSchema = new URL(pgUrl);
pgWithSchema.searchParams.set('options', `-c search_path=${schema}`);

async function prepare(databaseUrl: string) {
  const services = await createServices(loadConfig({ DATABASE_URL: databaseUrl }), { reddit: null });
  const tokens = await seedAccounts(services);
  await services.close();
  return tokens;
}

const sqliteEnv = { DATABASE_URL: tempSqliteUrl() };
// BENCH_REDIS_URL moves the rate-limit counters of the PostgreSQL instances to Redis.
const pgEnv: Record<string, string> = { DATABASE_URL: pgWithSchema.toString() };
if (process.env.BENCH_REDIS_URL) pgEnv.REDIS_URL = process.env.BENCH_REDIS_URL;
const [sqliteTokens, pgTokens] = [await prepare(sqliteEnv.DATABASE_URL), await prepare(pgEnv.DATABASE_URL)];
const children = [];
try {
  const counters = pgEnv.REDIS_URL ? 'Redis' : 'PostgreSQL';
  process.stdout.write(`subpilot scale benchmark: ${connections} connections, ${seconds} s per scenario, rate-limit counters in ${counters}\n`);
  const single = await startServer(sqliteEnv);
  children.push(single.child);
  const sqliteRows = [];
  await measure([single.url], coreScenarios(sqliteTokens)[0]!, 2, connections);
  for (const scenario of coreScenarios(sqliteTokens)) sqliteRows.push(await measure([single.url], scenario, seconds, connections));
  single.child.kill('SIGTERM');

  const a = await startServer(pgEnv, ['--no-worker']);
  const b = await startServer(pgEnv, ['--no-worker']);
  children.push(a.child, b.child);
  await measure([a.url, b.url], coreScenarios(pgTokens)[0]!, 2, connections);
  process.stdout.write(`\n${'scenario'.padEnd(40)}  SQLite×1 req/s  PostgreSQL×2 req/s  ratio\n`);
  for (const [i, scenario] of coreScenarios(pgTokens).entries()) {
    const row = await measure([a.url, b.url], scenario, seconds, connections);
    const base = sqliteRows[i]!.rps;
    process.stdout.write(
      `${scenario.name.padEnd(40)}  ${base.toFixed(0).padStart(14)}  ${row.rps.toFixed(0).padStart(18)}  ${(row.rps / base).toFixed(2)}\n`,
    );
  }
} finally {
  for (const child of children) child.kill('SIGTERM');
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.query(`DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
  await admin.end();
}
