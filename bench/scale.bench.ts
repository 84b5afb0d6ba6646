/**
 * Scale-out benchmark (issue 28): on PostgreSQL, GET /api/v1/balance (200) with one
 * `serve --no-worker` instance, then with two sharing the load (wrk's connections split evenly, one
 * wrk per instance, rates summed), with /healthz the same way for context. Both instances run
 * throughout; "one instance" sends all the load to the first. Each round measures the four figures
 * once and the ratios are taken within the round; prints the medians and the ratio two/one against
 * the target of 1.7. The machine's cores are shared by wrk, PostgreSQL and both servers, so the
 * figure is bounded by them (nproc is printed). A measurement, not a test: exits 0 either way.
 * Needs wrk on the PATH and TEST_DATABASE_URL (or BENCH_DATABASE_URL) pointing at a PostgreSQL
 * database it may write to (a schema of its own, dropped afterwards). Rate-limit counters live in
 * PostgreSQL unless BENCH_REDIS_URL is set (then in Redis).
 * Usage: npm run bench:scale [-- --rounds 3 --seconds 10 --connections 50]
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import { loadConfig } from '../src/shared/config/config.ts';
import { createServices } from '../src/app/container.ts';
import { balance, healthz, measure, median, roundOptions, seedAccounts, startServer } from './support.ts';

const { rounds, seconds, connections } = roundOptions();
const TARGET = 1.7;
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
// BENCH_REDIS_URL moves the rate-limit counters of the instances to Redis.
const env: Record<string, string> = { DATABASE_URL: pgWithSchema.toString() };
if (process.env.BENCH_REDIS_URL) env.REDIS_URL = process.env.BENCH_REDIS_URL;

const children = [];
try {
  const services = await createServices(loadConfig(env), { reddit: null });
  const { rich } = await seedAccounts(services);
  await services.close();

  const a = await startServer(env, ['--no-worker']);
  children.push(a.child);
  const b = await startServer(env, ['--no-worker']);
  children.push(b.child);
  const counters = env.REDIS_URL ? 'Redis' : 'PostgreSQL';
  process.stdout.write(
    `subpilot scale benchmark: PostgreSQL, serve --no-worker ×1 and ×2, ${connections} connections, ${seconds} s per figure, ` +
      `${rounds} round(s), rate-limit counters in ${counters}, ${availableParallelism()} cores (nproc) shared by wrk, PostgreSQL and the servers\n`,
  );
  await measure([a.url, b.url], healthz, 2, connections); // warm-up of both
  const scenarios = [healthz, balance(rich)];
  const rows = scenarios.map((scenario) => ({ name: scenario.name, one: [] as number[], two: [] as number[], ratio: [] as number[] }));
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`  round ${round + 1} of ${rounds}\n`);
    for (const [i, scenario] of scenarios.entries()) {
      const one = await measure([a.url], scenario, seconds, connections);
      const two = await measure([a.url, b.url], scenario, seconds, connections);
      rows[i]!.one.push(one.rps);
      rows[i]!.two.push(two.rps);
      rows[i]!.ratio.push(two.rps / one.rps);
    }
  }

  const width = Math.max(...rows.map((row) => row.name.length));
  process.stdout.write(`\n${'scenario'.padEnd(width)}  ×1 req/s (median)  ×2 req/s (median)  ×2/×1 (median)  ×2/×1 min–max\n`);
  for (const row of rows) {
    const spread = `${Math.min(...row.ratio).toFixed(2)}–${Math.max(...row.ratio).toFixed(2)}`;
    process.stdout.write(
      `${row.name.padEnd(width)}  ${median(row.one).toFixed(0).padStart(17)}  ${median(row.two).toFixed(0).padStart(17)}  ` +
        `${median(row.ratio).toFixed(2).padStart(14)}  ${spread.padStart(13)}\n`,
    );
  }
  const ratio = median(rows[1]!.ratio);
  process.stdout.write(`\ntarget: ${rows[1]!.name} ×2/×1 ${ratio.toFixed(2)} ≥ ${TARGET}: ${ratio >= TARGET ? 'met' : 'NOT met'}\n`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.query(`DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
  await admin.end();
}
