/**
 * What the HTTP benchmarks share: seeding, starting `subpilot serve` in its own process, and
 * `measure`, which runs wrk (the Debian package, on the PATH) and checks the replies' statuses.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServices, type Services } from '../src/app/container.ts';
import { createLlmClient, type LlmClient } from '../src/integrations/llm/llm.client.ts';
import { loadConfig } from '../src/shared/config/config.ts';

export interface Scenario {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expectStatus: number;
  /** The problem's `code` the request before the run must get: which refusal is measured (4xx share statuses). */
  expectCode?: string;
}

/** The options every round-based bench takes: `--rounds 3 --seconds 10 --connections 50` by default. */
export function roundOptions() {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
    },
  });
  return { rounds: Number(values.rounds), seconds: Number(values.seconds), connections: Number(values.connections) };
}

export const tempSqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'subpilot-bench-')), 'bench.sqlite')}`;

/**
 * One account with plenty of credits (10 million: enough for three rounds of successful scrapes at a
 * few thousand a second, one credit each) and one with none, each with a key.
 */
export async function seedAccounts(services: Services): Promise<{ rich: string; broke: string; richAccount: string }> {
  const rich = await services.accounts.createAccount(`rich-${Date.now()}@bench.local`);
  await services.credits.grant(rich.id, 10_000_000, 'bench');
  const broke = await services.accounts.createAccount(`broke-${Date.now()}@bench.local`);
  return {
    rich: (await services.keys.createKey(rich.id, 'bench')).token,
    broke: (await services.keys.createKey(broke.id, 'bench')).token,
    richAccount: rich.id,
  };
}

export const unknownKey = `ak_live_${'0'.repeat(64)}`;
export const healthz: Scenario = { name: 'GET /healthz', path: '/healthz', expectStatus: 200 };
export const balance = (token: string, name = 'GET /api/v1/balance (200)', expectStatus = 200, expectCode?: string): Scenario => ({
  name,
  path: '/api/v1/balance',
  headers: { authorization: `Bearer ${token}` },
  expectStatus,
  expectCode,
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The issue's measure: the server on one core and wrk on the other, each alone on its own. Unpinned,
 * the kernel moves both, and the server's helper threads (V8's garbage collector) share wrk's core.
 * With fewer than two cores nothing is pinned.
 */
const CORES = availableParallelism() >= 2 ? { server: 0, load: 1 } : null;
/** `command args` run on one core (taskset, from util-linux) when `core` is set. */
const onCore = (core: number | undefined, command: string, args: string[]): [string, string[]] =>
  core === undefined ? [command, args] : ['taskset', ['--cpu-list', String(core), command, ...args]];

/**
 * Starts `subpilot serve` as its own process (wrk gets the other core; `pinned`: each alone on its
 * own), logging warnings only so that request log lines do not weigh on the figures, and waits
 * until /healthz answers. Reddit credentials point nowhere unless `env` says otherwise: the 402 path
 * stops at the balance and never reaches Reddit. `entry` runs another server the same way (the
 * framework's floor, framework-floor.ts).
 */
export async function startServer(
  env: Record<string, string>,
  args: string[] = [],
  { pinned = false, entry = ['bin/subpilot.mjs', 'serve'] } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(...onCore(pinned ? CORES?.server : undefined, process.execPath, [...entry, ...args]), {
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
      // The 401 scenarios measure the key check itself, not the throttle that answers a flood of them.
      AUTH_FAILURES_PER_MINUTE: '100000000',
      REDDIT_CLIENT_ID: 'bench',
      REDDIT_CLIENT_SECRET: 'bench',
      REDDIT_API_URL: 'http://127.0.0.1:9',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 150; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('server did not start within 15 s');
}

/**
 * Stops a server and waits until its process has exited, so that nothing it still had to do (a
 * queue of scrapes, its shutdown) runs next to the scenario measured after it; SIGKILL after 30 s.
 */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(killer);
}

/** `run` against a server of its own (startServer's env and options), stopped and waited for afterwards whatever `run` did. */
export async function withServer<T>(
  env: Record<string, string>,
  options: Parameters<typeof startServer>[2],
  run: (url: string) => Promise<T>,
): Promise<T> {
  const { url, child } = await startServer(env, [], options);
  try {
    return await run(url);
  } finally {
    await stopServer(child);
  }
}

/** What one wrk run reports: latencies in ms, and how many replies had a status of 400 or more. */
interface WrkRun {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
}

const scriptDir = mkdtempSync(join(tmpdir(), 'subpilot-wrk-'));
let scripts = 0;

/**
 * A Lua string literal for any text: bytes outside printable ASCII, quotes and backslashes as
 * three-digit \ddd escapes, which every Lua reads the same (JSON's \u escapes are not Lua 5.1's).
 */
const luaString = (text: string) =>
  `"${[...Buffer.from(text)].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\${String(b).padStart(3, '0')}`)).join('')}"`;

function luaScript(scenario: Scenario): string {
  const lines = [`wrk.method = ${luaString(scenario.method ?? 'GET')}`];
  if (scenario.body !== undefined) lines.push(`wrk.body = ${luaString(scenario.body)}`);
  for (const [name, value] of Object.entries(scenario.headers ?? {})) lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  const path = join(scriptDir, `${++scripts}.lua`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Reads wrk's report; throws with the whole output if a line it always prints is missing. */
function parseWrk(output: string): WrkRun & { socketErrors: number[] } {
  const find = (pattern: RegExp) => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`wrk output without ${pattern}:\n${output}`);
    return match;
  };
  const latency = (percent: string) => {
    const [, value, unit] = find(new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$`, 'm'));
    return Number(value) * UNIT_MS[unit!]!;
  };
  // Both lines are printed only when the count is not zero.
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rps: Number(find(/Requests\/sec:\s+([\d.]+)/)[1]),
    p50: latency('50'),
    p99: latency('99'),
    requests: Number(find(/(\d+) requests in /)[1]),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).map(Number) : [0, 0, 0, 0],
  };
}

/**
 * One thread: the server process has the other core of the machine. A reply may take up to 30 s (a
 * scrape waits SCRAPE_SYNC_WAIT_MS, 25 s by default, for its worker): wrk's default of 2 s would
 * count a slow scrape under load as a socket error; slower than 30 s is one.
 */
async function runWrk(url: string, scenario: Scenario, seconds: number, connections: number, pinned: boolean): Promise<WrkRun> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '30s', '--latency', '-s', luaScript(scenario), url + scenario.path];
  const { stdout } = await promisify(execFile)(...onCore(pinned ? CORES?.load : undefined, 'wrk', args), { maxBuffer: 1 << 20 });
  const { socketErrors, ...run } = parseWrk(stdout);
  if (socketErrors.some((count) => count > 0)) {
    const [connect, read, write, timeout] = socketErrors;
    throw new Error(`${scenario.name}: socket errors (connect ${connect}, read ${read}, write ${write}, timeout ${timeout}) against ${url}`);
  }
  return run;
}

/** One request of the scenario must get exactly its status (and code): wrk only counts replies of 400 or more. */
export async function expectAnswer(url: string, scenario: Scenario) {
  const response = await fetch(url + scenario.path, { method: scenario.method ?? 'GET', headers: scenario.headers, body: scenario.body });
  const body = await response.text();
  const code = scenario.expectCode && (JSON.parse(body) as { code?: string }).code;
  if (response.status !== scenario.expectStatus || code !== scenario.expectCode) {
    const expected = `${scenario.expectStatus}${scenario.expectCode ? ` ${scenario.expectCode}` : ''}`;
    throw new Error(`${scenario.name}: expected ${expected}, got ${response.status}: ${body.slice(0, 500)}`);
  }
}

export interface Measured extends WrkRun {
  name: string;
}

/**
 * Runs one scenario with wrk against each URL at once (connections split evenly) and sums the
 * rates. The status is checked without slowing wrk down: one request before the run must get
 * exactly `expectStatus`, and afterwards wrk's count of replies of 400 or more must be none (an
 * expected 2xx) or all of them (an expected 4xx/5xx). `checkStatuses: false` skips both, for a
 * scenario whose caller reports the refusals itself (and whose key must not be used beforehand).
 * Socket errors always fail. `pinned` runs wrk on the core a pinned server leaves it.
 */
export async function measure(
  urls: string[],
  scenario: Scenario,
  seconds: number,
  connections: number,
  { checkStatuses = true, pinned = false } = {},
): Promise<Measured> {
  if (checkStatuses) for (const url of urls) await expectAnswer(url, scenario);
  const runs = await Promise.all(urls.map((url) => runWrk(url, scenario, seconds, Math.max(1, Math.round(connections / urls.length)), pinned)));
  const sum = (field: 'rps' | 'requests' | 'non2xx') => runs.reduce((total, run) => total + run[field], 0);
  const measured = {
    name: scenario.name,
    rps: sum('rps'),
    p50: Math.max(...runs.map((run) => run.p50)),
    p99: Math.max(...runs.map((run) => run.p99)),
    requests: sum('requests'),
    non2xx: sum('non2xx'),
  };
  const expected = scenario.expectStatus < 400 ? 0 : measured.requests;
  if (checkStatuses && measured.non2xx !== expected) {
    throw new Error(`${scenario.name}: ${measured.non2xx} of ${measured.requests} replies had a status of 400 or more; expected ${expected} (all ${scenario.expectStatus})`);
  }
  return measured;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * The service on simulated time with a SQLite file, against a fake Reddit: `now()` is its clock, and
 * waits for the Reddit budget call `sleep`, which moves that clock instead of sleeping. `wrapLlm`
 * gets the language-model client the config builds (LLM_* in `env`) and returns what the service
 * uses instead: the same client, watched (to count the tokens it reads, say).
 */
export function simulatedServices(
  fake: { url: string; clientId: string; clientSecret: string },
  time: { now: () => number; sleep: (ms: number) => Promise<void> },
  env: Record<string, string>,
  wrapLlm?: (llm: LlmClient) => LlmClient,
) {
  const config = loadConfig({
    DATABASE_URL: tempSqliteUrl(),
    LOG_LEVEL: 'silent',
    REDDIT_API_URL: fake.url,
    REDDIT_AUTH_URL: fake.url,
    REDDIT_CLIENT_ID: fake.clientId,
    REDDIT_CLIENT_SECRET: fake.clientSecret,
    ...env,
  });
  const llm = wrapLlm && config.llm ? { llm: wrapLlm(createLlmClient(config.llm)) } : {};
  return createServices(config, { clock: () => new Date(time.now()), sleep: time.sleep, redditOptions: { sleep: time.sleep, timeoutMs: 10_000 }, ...llm });
}
