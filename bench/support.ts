import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
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
}

export const tempSqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'subpilot-bench-')), 'bench.sqlite')}`;

/** One account with plenty of credits and one with none, each with a key. */
export async function seedAccounts(services: Services) {
  const rich = await services.accounts.createAccount(`rich-${Date.now()}@bench.local`);
  await services.credits.grant(rich.id, 1_000_000, 'bench');
  const broke = await services.accounts.createAccount(`broke-${Date.now()}@bench.local`);
  return {
    rich: (await services.keys.createKey(rich.id, 'bench')).token,
    broke: (await services.keys.createKey(broke.id, 'bench')).token,
  };
}

/** The four figures of the core benchmark: the baseline, a paid-for read, the 401 and the 402 paths. */
export const coreScenarios = (tokens: { rich: string; broke: string }): Scenario[] => [
  { name: 'GET /healthz', path: '/healthz', expectStatus: 200 },
  { name: 'GET /api/v1/balance (200)', path: '/api/v1/balance', headers: { authorization: `Bearer ${tokens.rich}` }, expectStatus: 200 },
  {
    name: 'GET /api/v1/balance, unknown key (401)',
    path: '/api/v1/balance',
    headers: { authorization: `Bearer ak_live_${'0'.repeat(64)}` },
    expectStatus: 401,
  },
  {
    name: 'POST /api/v1/scrape, no credits (402)',
    method: 'POST',
    path: '/api/v1/scrape',
    headers: { authorization: `Bearer ${tokens.broke}`, 'content-type': 'application/json' },
    body: JSON.stringify({ subreddits: ['r/node'], keywords: ['bench'] }),
    expectStatus: 402,
  },
];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `subpilot serve` as its own process (autocannon gets the other core), logging warnings
 * only so that request log lines do not weigh on the figures, and waits until /healthz answers.
 * Reddit credentials point nowhere: the 402 path stops at the balance and never reaches Reddit.
 */
export async function startServer(env: Record<string, string>, args: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/subpilot.mjs', 'serve', ...args], {
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
      // The 401 scenario measures the key check itself, not the throttle that answers a flood of them.
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
 * Runs one scenario with autocannon against each URL at once (connections split evenly) and sums
 * the rates; fails loudly if any reply had another status than expected.
 */
export async function measure(urls: string[], scenario: Scenario, seconds: number, connections: number) {
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url: url + scenario.path,
        method: scenario.method ?? 'GET',
        headers: scenario.headers,
        body: scenario.body,
        duration: seconds,
        connections: Math.max(1, Math.round(connections / urls.length)),
      }),
    ),
  );
  for (const result of results) {
    const statuses = Object.keys(result.statusCodeStats ?? {});
    if (result.errors > 0 || statuses.length !== 1 || statuses[0] !== String(scenario.expectStatus)) {
      throw new Error(`${scenario.name}: unexpected replies (statuses ${statuses.join(', ')}, errors ${result.errors})`);
    }
  }
  return {
    name: scenario.name,
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
  };
}

export function printTable(rows: { name: string; rps: number; p99: number }[], baseline: number, label = '/healthz') {
  const width = Math.max(...rows.map((r) => r.name.length));
  process.stdout.write(`\n${'scenario'.padEnd(width)}  req/s      p99 ms  ratio to ${label}\n`);
  for (const row of rows) {
    process.stdout.write(
      `${row.name.padEnd(width)}  ${row.rps.toFixed(0).padStart(8)}  ${String(row.p99).padStart(6)}  ${(row.rps / baseline).toFixed(2)}\n`,
    );
  }
}

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
