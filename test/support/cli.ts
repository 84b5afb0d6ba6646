import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { main } from '../../src/cli/main.ts';
import type { TestDatabase } from './engines.ts';
import { cheapPasswords } from './passwords.ts';

/**
 * Runs the CLI in this process, as bin/subpilot.mjs does, and reports what the binary would exit
 * with. Starting Node and tsx per command cost about a second; a few tests still run the binary.
 */
export async function runCli(database: TestDatabase, args: string[], input?: string) {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv: args,
    env: { ...process.env, ...database.env, LOG_LEVEL: 'silent' },
    stdin: Readable.from(input === undefined ? [] : [input]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    passwords: cheapPasswords,
  });
  return { code, stdout, stderr };
}

const bin = resolve('bin/subpilot.mjs');

/**
 * The real binary in a child process: exit codes, standard input and the working directory as an
 * operator's shell has them. `env` is added to this process's environment; an undefined value removes
 * a variable (DATABASE_URL, to run with the default database of `cwd`).
 */
export async function runCliProcess(
  args: string[],
  env: Record<string, string | undefined>,
  options: { input?: string; cwd?: string } = {},
) {
  const child = promisify(execFile)(process.execPath, [bin, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    cwd: options.cwd,
  });
  // Always ended, so a command that reads standard input gets an empty one instead of waiting.
  child.child.stdin!.end(options.input ?? '');
  try {
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
