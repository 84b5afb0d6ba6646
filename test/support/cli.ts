import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.ts';
import type { TestDatabase } from './engines.ts';

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
  });
  return { code, stdout, stderr };
}
