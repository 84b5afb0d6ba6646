/**
 * Failed-key flood benchmark (issue 9): what a flood of unknown keys from the same address costs a
 * good key that this server has already seen work: the good key alone, then next to the flood with
 * the failed-key throttle on (its default) and off, each on a fresh SQLite server, with wrk. Prints
 * the good key's req/s, p50 and p99, how many of its requests were refused, and how many of the
 * flood's were (401 or, once throttled, 429: wrk counts both as non-2xx without telling them apart).
 * `npm run bench` measures the other case, a key never used before, as one of its scenarios.
 * Needs wrk on the PATH.
 * Usage: npm run bench:auth-flood [-- --seconds 10]
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/shared/config/config.ts';
import { createServices } from '../src/app/container.ts';
import { balance, expectAnswer, healthz, measure, seedAccounts, tempSqliteUrl, unknownKey, withServer } from './support.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' } } });
const seconds = Number(values.seconds);
const GOOD_CONNECTIONS = 10;
const FLOOD_CONNECTIONS = 40;

async function scenario(name: string, throttlePerMinute: string, flood: boolean) {
  const env = { DATABASE_URL: tempSqliteUrl(), AUTH_FAILURES_PER_MINUTE: throttlePerMinute };
  const services = await createServices(loadConfig(env), { reddit: null });
  const { rich } = await seedAccounts(services);
  await services.close();
  // Its own server, waited for afterwards: one still shutting down would share the core with the next scenario's.
  return withServer(env, {}, async (url) => {
    // Warms the fresh process up without touching a key or the throttle.
    await measure([url], healthz, 2, GOOD_CONNECTIONS + FLOOD_CONNECTIONS);
    // One 200 before the run: this process has seen the key work. Its refusals during the flood are counted, not checked.
    const good = balance(rich, 'good key');
    await expectAnswer(url, good);
    const [measured, bad] = await Promise.all([
      measure([url], good, seconds, GOOD_CONNECTIONS, { checkStatuses: false }),
      flood ? measure([url], balance(unknownKey, 'flood of unknown keys', 401), seconds, FLOOD_CONNECTIONS) : null,
    ]);
    return { ...measured, name, floodAnswers: bad ? `${bad.non2xx} of ${bad.requests} refused` : '-' };
  });
}

const defaultThrottle = String(loadConfig({}).authFailuresPerMinute);
process.stdout.write(
  `subpilot failed-key flood benchmark: SQLite, 1 process, good key ${GOOD_CONNECTIONS} connections, flood ${FLOOD_CONNECTIONS}, ${seconds} s each, wrk -t1\n\n`,
);
const rows = [
  await scenario(`good key alone (throttle ${defaultThrottle}/min)`, defaultThrottle, false),
  await scenario(`good key + flood, throttle on (${defaultThrottle}/min)`, defaultThrottle, true),
  await scenario('good key + flood, throttle off', '1000000000', true),
];
const width = Math.max(...rows.map((r) => r.name.length));
process.stdout.write(`${'scenario'.padEnd(width)}  good req/s  p50 ms  p99 ms  good key refused  flood (401 or 429)\n`);
for (const r of rows) {
  process.stdout.write(
    `${r.name.padEnd(width)}  ${r.rps.toFixed(0).padStart(10)}  ${r.p50.toFixed(2).padStart(6)}  ${r.p99.toFixed(2).padStart(6)}  ` +
      `${`${r.non2xx} of ${r.requests}`.padStart(16)}  ${r.floodAnswers}\n`,
  );
}
const [alone, on, off] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
process.stdout.write(`\ngood key's req/s during a flood, relative to alone: throttle on ${(on.rps / alone.rps).toFixed(2)}, off ${(off.rps / alone.rps).toFixed(2)}\n`);
