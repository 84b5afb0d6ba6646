import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig } from '../shared/config/config.ts';
import { databaseFailure } from '../shared/db/database.errors.ts';
import { isAppError } from '../shared/errors.ts';
import { accountsCommand } from './accounts.ts';
import { billingCommand } from './billing.ts';
import { creditsCommand } from './credits.ts';
import type { CliIo } from './io.ts';
import { mcpCommand } from './mcp.ts';
import { monitorsCommand } from './monitors.ts';
import { keysCommand } from './operator.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * The HTTP server and the background jobs, imported only by the commands that run them: loading them
 * (Fastify, every route and schema, the whole container with the LLM client) took most of the time
 * of a one-shot command, which needs none of it.
 */
const runtime = () => import('./serve.ts');

/** The `subpilot` command tree. A fresh one per run: commander keeps the parsed options on it. */
export function subpilotProgram(io: CliIo): Command {
  const program = new Command('subpilot')
    .description('subpilot: credit-billed Reddit automation service')
    .version(version, '-V, --version', 'print the version of subpilot')
    .showHelpAfterError();

  program
    .command('serve')
    .description('run the HTTP service and, unless --no-worker, the background jobs (applies migrations first)')
    .option('--no-worker', 'serve HTTP only; run `subpilot worker` processes for the jobs')
    .action(async (options: { worker: boolean }) => (await runtime()).serve(loadConfig(io.env), { worker: options.worker }));

  program
    .command('worker')
    .description('run the background jobs only (scrapes, webhook deliveries)')
    .action(async () => (await runtime()).worker(loadConfig(io.env)));

  program.addCommand(accountsCommand(io));
  program.addCommand(creditsCommand(io));
  program.addCommand(billingCommand(io));
  program.addCommand(keysCommand(io));
  program.addCommand(monitorsCommand(io));
  program.addCommand(mcpCommand(io, version));

  // Commands joined with addCommand inherit no settings, so each one is told to write through io and
  // to throw its exit code to main rather than end the process.
  const reportThroughIo = (command: Command) => {
    command.exitOverride().configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
    command.commands.forEach(reportThroughIo);
  };
  reportThroughIo(program);
  return program;
}

/**
 * Runs one `subpilot` command and resolves to its exit code. An expected failure (bad configuration,
 * refused operation, bad argument, a database that cannot be used) is one `subpilot: …` line on
 * stderr; anything else is a bug and throws.
 */
export async function main(io: CliIo): Promise<number> {
  try {
    await subpilotProgram(io).parseAsync(io.argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof ConfigError || isAppError(error) || error instanceof InvalidArgumentError) {
      io.stderr.write(`subpilot: ${error.message}\n`);
      return 1;
    }
    const database = databaseFailure(error);
    if (database) {
      io.stderr.write(`subpilot: ${database}\n`);
      return 1;
    }
    // Commander has already printed its usage error or the help; it only tells the exit code.
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
}
