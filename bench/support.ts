import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';

export interface Scenario {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expectStatus: number;
}

export const tempSqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'subpilot-bench-')), 'bench.sqlite')}`;

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
 */
export async function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/subpilot.mjs', 'serve'], {
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('server did not start within 10 s');
}

/** Runs one scenario with autocannon; fails loudly if any reply had another status than expected. */
export async function measure(url: string, scenario: Scenario, seconds: number, connections: number) {
  const result = await autocannon({
    url: url + scenario.path,
    method: scenario.method ?? 'GET',
    headers: scenario.headers,
    body: scenario.body,
    duration: seconds,
    connections,
    expectBody: undefined,
  });
  const wrong = result.non2xx - (scenario.expectStatus >= 300 ? result.requests.total : 0);
  const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => `${code}:${s.count}`).join(' ');
  if (result.errors > 0 || (scenario.expectStatus < 300 && wrong > 0) || !(String(scenario.expectStatus) in (result.statusCodeStats ?? {}))) {
    throw new Error(`${scenario.name}: unexpected replies (${statuses}, errors ${result.errors})`);
  }
  return { name: scenario.name, rps: result.requests.average, p99: result.latency.p99, statuses };
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
