/**
 * Scale-out benchmark (issue 28): on PostgreSQL, GET /api/v1/balance (200) with one
 * `serve --no-worker` instance, then with two sharing the load (wrk's connections split evenly, one
 * wrk per instance, rates summed), with /healthz the same way for context. Both instances run
 * throughout; "one instance" sends all the load to the first. Each round measures the four figures
 * once and the ratios are taken within the round; prints the medians and the ratio two/one against
 * the target of 1.7. The machine's cores are shared by wrk, PostgreSQL and both servers, so the
 * figure is bounded by them (nproc is printed); so it also prints what each call costs in CPU, the
 * servers', PostgreSQL's and Redis's (from /proc, when they run on this machine), and how often a
 * backend waited for a lock: what the figure would be with cores to spare follows from those.
 * A measurement, not a test: exits 0 either way.
 * Needs wrk on the PATH and TEST_DATABASE_URL (or BENCH_DATABASE_URL) pointing at a PostgreSQL
 * database it may write to (a schema of its own, dropped afterwards). Rate-limit counters live in
 * PostgreSQL unless BENCH_REDIS_URL is set (then in Redis).
 * Usage: npm run bench:scale [-- --rounds 3 --seconds 10 --connections 50]
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import { loadConfig } from '../src/shared/config/config.ts';
import { createServices } from '../src/app/container.ts';
import { balance, healthz, measure, median, roundOptions, seedAccounts, startServer, stopServer, type Scenario } from './support.ts';

const { rounds, seconds, connections } = roundOptions();
const TARGET = 1.7;
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!pgUrl) {
  process.stderr.write('bench:scale needs TEST_DATABASE_URL or BENCH_DATABASE_URL (a PostgreSQL URL)\n');
  process.exit(2);
}

/** Milliseconds per clock tick of /proc's CPU times. */
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat; 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The processes of a server (`postgres`, `redis-server`) on this machine: none when it runs elsewhere. */
function processesNamed(name: string): number[] {
  const comm = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return '';
    }
  };
  return readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && comm(pid) === name).map(Number);
}

/** CPU used so far by the servers, PostgreSQL's processes (a backend started since counts whole) and Redis. */
function cpuNow(servers: number[]) {
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + cpuMs(pid), 0);
  return { servers: sum(servers), postgres: sum(processesNamed('postgres')), redis: sum(processesNamed('redis-server')) };
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
  const pids = [a.child.pid!, b.child.pid!];
  /**
   * One figure, with what each call cost in CPU (µs: the servers', PostgreSQL's, Redis's; the
   * sampling's own 50 queries a second included) and the share of samples, every 20 ms, in which a
   * backend of this database waited for a lock (a row both instances update serializes them whatever
   * the cores).
   */
  async function figure(urls: string[], scenario: Scenario) {
    const before = cpuNow(pids);
    const run = measure(urls, scenario, seconds, connections);
    let samples = 0;
    let waiting = 0;
    let running = true;
    void run.finally(() => (running = false)).catch(() => {});
    while (running) {
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
      );
      samples += 1;
      if (rows[0]!.n > 0) waiting += 1;
      await setTimeout(20);
    }
    const measured = await run;
    const after = cpuNow(pids);
    const perCall = (ms: number) => (ms * 1000) / measured.requests;
    const cpu = { servers: perCall(after.servers - before.servers), postgres: perCall(after.postgres - before.postgres), redis: perCall(after.redis - before.redis) };
    return { rps: measured.rps, ...cpu, locks: waiting / samples };
  }
  const scenarios = [healthz, balance(rich)];
  const rows = scenarios.map((scenario) => ({ name: scenario.name, one: [] as number[], two: [] as number[], ratio: [] as number[], cpu: [] as Awaited<ReturnType<typeof figure>>[] }));
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`  round ${round + 1} of ${rounds}\n`);
    for (const [i, scenario] of scenarios.entries()) {
      const one = await figure([a.url], scenario);
      const two = await figure([a.url, b.url], scenario);
      rows[i]!.one.push(one.rps);
      rows[i]!.two.push(two.rps);
      rows[i]!.ratio.push(two.rps / one.rps);
      rows[i]!.cpu.push(one, two);
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
  // What limits the figure on a machine whose cores everything shares: the CPU each call takes. The
  // medians are over the ×1 and the ×2 runs together: a call costs the same either way, and one
  // instance's pool also updates the rate-limit row from several connections.
  process.stdout.write(`\n${'scenario (×1 and ×2 runs)'.padEnd(width)}  CPU µs/call: servers  PostgreSQL  Redis  lock waits (share of samples)\n`);
  for (const row of rows) {
    const of = (field: 'servers' | 'postgres' | 'redis' | 'locks') => median(row.cpu.map((cpu) => cpu[field]));
    const cpu = (field: 'servers' | 'postgres' | 'redis', width: number) => of(field).toFixed(0).padStart(width);
    process.stdout.write(
      `${row.name.padEnd(width)}  ${cpu('servers', 20)}  ${cpu('postgres', 10)}  ${cpu('redis', 5)}  ${(of('locks') * 100).toFixed(1).padStart(28)}%\n`,
    );
  }
  const ratio = median(rows[1]!.ratio);
  process.stdout.write(`\ntarget: ${rows[1]!.name} ×2/×1 ${ratio.toFixed(2)} ≥ ${TARGET}: ${ratio >= TARGET ? 'met' : 'NOT met'}\n`);
} finally {
  // Their connections closed before the schema they use is dropped.
  await Promise.all(children.map(stopServer));
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.query(`DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
  await admin.end();
}
