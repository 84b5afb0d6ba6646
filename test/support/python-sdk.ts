import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fencedBlocks } from './markdown.ts';
import { eventually } from './receiver.ts';

const run = promisify(execFile);
export const SDK_DIR = resolve('sdk/python');

/** The examples of sdk/python/README.md (```` ```python example=sdk-quickstart.py ````), written into `dir` as those files. */
export function writeReadmeExamples(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const names: string[] = [];
  for (const block of fencedBlocks(readFileSync(join(SDK_DIR, 'README.md'), 'utf8'))) {
    const name = /(?:^|\s)example=(\S+)/.exec(block.info)?.[1];
    if (!name) continue;
    writeFileSync(join(dir, name), block.code);
    names.push(name);
  }
  return names;
}

/**
 * The Python SDK as a reader gets it: its source distribution, built by the backend its
 * pyproject.toml declares (from a copy, so the checkout gets no build files), and unpacked. The
 * scripts then import `subpilot` from there, so a module or `py.typed` missing from the
 * distribution fails them.
 */
export async function packPythonSdk() {
  const dir = mkdtempSync(join(tmpdir(), 'subpilot-python-'));
  cpSync(SDK_DIR, join(dir, 'source'), { recursive: true, filter: (path) => !path.includes('__pycache__') });
  mkdirSync(join(dir, 'dist'));
  const build = 'import sys, setuptools.build_meta as backend; print(backend.build_sdist(sys.argv[1]))';
  const { stdout } = await run('python3', ['-c', build, join(dir, 'dist')], { cwd: join(dir, 'source') });
  const archive = stdout.trim().split('\n').pop()!;
  await run('tar', ['xzf', join(dir, 'dist', archive), '-C', join(dir, 'dist')]);
  const unpacked = join(dir, 'dist', readdirSync(join(dir, 'dist')).find((name) => !name.endsWith('.tar.gz'))!);
  const pythonEnv = { PYTHONPATH: unpacked, PYTHONDONTWRITEBYTECODE: '1', NO_PROXY: '127.0.0.1' };
  return {
    /** The unpacked distribution: what `pip install` would copy into site-packages. */
    root: unpacked,
    files: (): string[] => readdirSync(unpacked, { recursive: true, encoding: 'utf8' }),
    /**
     * Runs one of sdk/python/tests as `python3 -S` (no site-packages: the standard library alone, as
     * the SDK promises), from a directory outside the checkout; rejects with its output on failure.
     * `reports` are the JSON lines a script prints for the harness (`REPORT {...}`).
     */
    async python(script: string, env: Record<string, string> = {}, cwd = dir) {
      try {
        const { stdout, stderr } = await run('python3', ['-S', isAbsolute(script) ? script : join(SDK_DIR, 'tests', script), '-v'], {
          cwd,
          timeout: 60_000,
          env: { ...process.env, ...pythonEnv, ...env },
        });
        const reports = stdout.split('\n').filter((line) => line.startsWith('REPORT ')).map((line) => JSON.parse(line.slice(7)) as Record<string, string>);
        return { stdout, stderr, reports };
      } catch (error) {
        const { stdout, stderr } = error as { stdout?: string; stderr?: string };
        throw new Error(`${script} failed: ${(error as Error).message}\n${stdout ?? ''}\n${stderr ?? ''}`);
      }
    },
    /** Starts a script that serves (a webhook receiver) with `PORT=0`; resolves once it prints `listening on <url>`. */
    async serve(script: string, env: Record<string, string>) {
      const child: ChildProcess = spawn('python3', ['-S', script], { cwd: dir, env: { ...process.env, ...pythonEnv, ...env, PORT: '0' } });
      let output = '';
      let errors = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const url = await eventually(() => {
        if (child.exitCode !== null) throw new Error(`${script} exited: ${errors}`);
        return /listening on (http:\/\/\S+)/.exec(output)?.[1];
      }, 30_000);
      return { url, lines: () => output.split('\n').slice(1).filter(Boolean), stop: () => child.kill() };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export type PythonSdk = Awaited<ReturnType<typeof packPythonSdk>>;
