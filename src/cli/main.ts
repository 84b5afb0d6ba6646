import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig } from '../app/config.ts';
import { isAppError } from '../app/errors.ts';
import { accountsCommand, creditsCommand, keysCommand } from './operator.ts';
import { serve } from './serve.ts';

const program = new Command('subpilot')
  .description('subpilot: credit-billed Reddit automation service')
  .showHelpAfterError();

program
  .command('serve')
  .description('run the HTTP service (applies migrations first)')
  .action(() => serve(loadConfig()));

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
