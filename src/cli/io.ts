import type { PasswordHasher } from '../shared/crypto/passwords.ts';

/**
 * Everything one CLI run reads and writes. bin/subpilot.mjs passes the real process; the tests pass
 * buffers, so most of the CLI suite runs in-process instead of spawning Node per command.
 */
export interface CliIo {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  stdin: AsyncIterable<Buffer | string>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** How passwords are hashed: absent in bin/subpilot.mjs (production cost); the tests pass a cheap one. */
  passwords?: PasswordHasher;
}

/** All of standard input as text, without its final line break (`echo secret | subpilot …`). */
export async function readAll(stdin: CliIo['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** A header row and the rows under it, each column as wide as its widest cell (`--json` is for scripts). */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [header, ...rows].map(line).join('\n') + '\n';
}
