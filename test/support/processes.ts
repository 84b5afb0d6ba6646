import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Every `subpilot` a test started that has not exited yet. A suite stops its own, but one whose set-up
 * failed half way (a second process that never answered) cannot: they are killed when the worker exits.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));

/** Runs `subpilot <args>` as a real child process; for `serve`, resolves once /healthz answers. */
export async function startSubpilot(
  args: string[],
  env: Record<string, string>,
  options: { onStdout?: (text: string) => void } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/subpilot.mjs', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), ...env },
    stdio: ['ignore', options.onStdout ? 'pipe' : 'ignore', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.stdout?.setEncoding('utf8').on('data', (text: string) => options.onStdout?.(text));
  const url = `http://127.0.0.1:${port}`;
  if (args[0] !== 'serve') return { url, child };
  // Generous: the slow tier starts several processes at once beside the other suites, on two cores.
  for (const deadline = Date.now() + 45_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`subpilot ${args.join(' ')} exited with ${child.exitCode}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error('subpilot serve did not start within 45 s');
}
