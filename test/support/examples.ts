import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { examples } from './markdown.ts';

const run = promisify(execFile);

/**
 * A directory holding every example of the documents as the file it is named after, laid out as a
 * reader's project would be: an ES module package that finds this repository's node_modules
 * (openapi-fetch, tsx, typescript) as its own.
 */
export function examplesDirectory() {
  const dir = mkdtempSync(join(tmpdir(), 'subpilot-examples-'));
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  for (const example of examples().values()) writeFileSync(join(dir, example.name), example.code);
  return {
    dir,
    /** A fresh working directory for one run (the matches readers keep their place in it). */
    workdir(name: string) {
      const path = join(dir, 'runs', name);
      mkdirSync(path, { recursive: true });
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export type Language = 'sh' | 'ts' | 'py';

/** How a reader runs an example file: bash, Node with tsx (no type check: tsc does that), python3. */
const runners: Record<Language, (file: string) => [string, string[]]> = {
  sh: (file) => ['bash', [file]],
  ts: (file) => [process.execPath, ['--import', 'tsx', file]],
  py: (file) => ['python3', [file]],
};

/** Runs one example; rejects with its output when it exits with an error. */
export async function runExample(dir: string, name: string, options: { cwd: string; env: Record<string, string> }): Promise<string> {
  const [command, args] = runners[name.split('.').pop() as Language](join(dir, name));
  try {
    const { stdout } = await run(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: 60_000 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${name} failed: ${(error as Error).message}\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/**
 * One bash session in the checkout, as a reader who pastes the blocks into one terminal there has
 * (`npx subpilot` finds the CLI): what a block sets (an exported key, MONITOR_ID) is there for the
 * next. Each block is sourced from a file written to `stepsDir`, with nothing on its standard input.
 */
export function shellSession(stepsDir: string, env: Record<string, string>) {
  const cwd = process.cwd();
  const shell = spawn('bash', ['--noprofile', '--norc'], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let steps = 0;
  return {
    async run(script: string): Promise<{ output: string; errors: string; status: number }> {
      const step = ++steps;
      const file = join(stepsDir, `step-${step}.sh`);
      writeFileSync(file, script);
      const [outFrom, errFrom] = [stdout.length, stderr.length];
      const marker = `__step_${step}_done__`;
      shell.stdin.write(`source ${file} </dev/null; printf '\\n${marker} %s\\n' "$?"\n`);
      const done = new RegExp(`\\n${marker} (\\d+)\\n`);
      const deadline = Date.now() + 60_000;
      let end: RegExpExecArray | null;
      while (!(end = done.exec(stdout.slice(outFrom)))) {
        if (shell.exitCode !== null || Date.now() > deadline) throw new Error(`step ${step} did not finish:\n${stdout.slice(outFrom)}\n${stderr.slice(errFrom)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { output: stdout.slice(outFrom, outFrom + end.index), errors: stderr.slice(errFrom), status: Number(end[1]) };
    },
    /** Runs the document's example of that name in this session; its output, once it exited 0. */
    async example(name: string): Promise<string> {
      const result = await this.run(examples().get(name)!.code);
      expect(result.status, `${name}: ${result.output}\n${result.errors}`).toBe(0);
      return result.output;
    },
    close: () => shell.stdin.end(),
  };
}

/** A value as one shell word. */
export const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
