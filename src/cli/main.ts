import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig } from '../shared/config/config.ts';
import { isAppError } from '../shared/errors.ts';
import { accountsCommand, creditsCommand, keysCommand } from './operator.ts';
import { serve, worker } from './serve.ts';

const program = new Command('subpilot')
  .description('subpilot: credit-billed Reddit automation service')
  .showHelpAfterError();

program
  .command('serve')
  .description('run the HTTP service and, unless --no-worker, the background jobs (applies migrations first)')
  .option('--no-worker', 'serve HTTP only; run `subpilot worker` processes for the jobs')
  .action((options: { worker: boolean }) => serve(loadConfig(), { worker: options.worker }));

program
  .command('worker')
  .description('run the background jobs only (scrapes, webhook deliveries)')
  .action(() => worker(loadConfig()));

program.addCommand(accountsCommand());
program.addCommand(creditsCommand());
program.addCommand(keysCommand());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof ConfigError || isAppError(error) || error instanceof InvalidArgumentError) {
    process.stderr.write(`subpilot: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
