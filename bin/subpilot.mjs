#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so a checkout needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const code = await main({
  argv: process.argv.slice(2),
  env: process.env,
  // Opened only by a command that reads it: an open stdin would keep every other command from exiting.
  stdin: { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() },
  stdout: process.stdout,
  stderr: process.stderr,
});
// Success leaves Node to exit once nothing is open, so `serve` and `worker` keep running.
if (code !== 0) process.exit(code);
