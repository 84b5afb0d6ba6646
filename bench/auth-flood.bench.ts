/**
 * Failed-key flood benchmark: a good key's latency alone, then during a flood of
 * unknown keys from the same address, with the failed-key throttle on (the default) and off, in one
 * run. Prints the good key's req/s and median/p99 latency and how the flood was answered.
 * Usage: npm run bench:auth-flood [-- --seconds 10]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { loadConfig } from '../src/shared/config/config.ts';
import { createServices } from '../src/app/container.ts';
import { seedAccounts, startServer, tempSqliteUrl } from './support.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' } } });
const seconds = Number(values.seconds);
const GOOD_CONNECTIONS = 10;
const FLOOD_CONNECTIONS = 40;

const run = (url: string, token: string, connections: number) =>
  autocannon({ url: `${url}/api/v1/balance`, headers: { authorization: `Bearer ${token}` }, duration: seconds, connections });

async function scenario(name: string, throttlePerMinute: string, flood: boolean) {
  const env = { DATABASE_URL: tempSqliteUrl(), AUTH_FAILURES_PER_MINUTE: throttlePerMinute };
  const services = await createServices(loadConfig(env), { reddit: null });
  const { rich } = await seedAccounts(services);
  await services.close();
  const { url, child } = await startServer(env);
  try {
    await fetch(`${url}/api/v1/balance`, { headers: { authorization: `Bearer ${rich}` } }); // this process has seen the key work
    const [good, bad] = await Promise.all([
      run(url, rich, GOOD_CONNECTIONS),
      flood ? run(url, `ak_live_${'0'.repeat(64)}`, FLOOD_CONNECTIONS) : Promise.resolve(null),
    ]);
    const floodAnswers = bad ? Object.entries(bad.statusCodeStats ?? {}).map(([status, s]) => `${s.count} × ${status}`).join(', ') : '-';
    const goodStatuses = Object.keys(good.statusCodeStats ?? {}).join(',');
    return { name, rps: good.requests.average, p50: good.latency.p50, p99: good.latency.p99, goodStatuses, floodAnswers };
  } finally {
    child.kill('SIGTERM');
  }
}

process.stdout.write(`subpilot failed-key flood benchmark: SQLite, 1 process, good key ${GOOD_CONNECTIONS} connections, flood ${FLOOD_CONNECTIONS}, ${seconds} s each\n\n`);
const rows = [
  await scenario('good key alone', '120', false),
  await scenario('good key + flood, throttle on (120/min)', '120', true),
  await scenario('good key + flood, throttle off', '1000000000', true),
];
const width = Math.max(...rows.map((r) => r.name.length));
process.stdout.write(`${'scenario'.padEnd(width)}  good req/s  p50 ms  p99 ms  good statuses  flood answered\n`);
for (const r of rows) {
  process.stdout.write(
    `${r.name.padEnd(width)}  ${r.rps.toFixed(0).padStart(10)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${r.goodStatuses.padEnd(13)}  ${r.floodAnswers}\n`,
  );
}
const [alone, on, off] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
process.stdout.write(`\ngood key's req/s during a flood, relative to alone: throttle on ${(on.rps / alone.rps).toFixed(2)}, off ${(off.rps / alone.rps).toFixed(2)}\n`);
