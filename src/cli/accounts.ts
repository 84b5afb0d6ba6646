import { Command } from 'commander';
import { formatTable, readAll, type CliIo } from './io.ts';
import { emailOption, withServices } from './operator.ts';

const passwordStdin = (what: string) => `read ${what} from standard input (at least 10 characters; one trailing newline is dropped)`;

export function accountsCommand(io: CliIo): Command {
  const accounts = new Command('accounts').description('manage accounts and their dashboard passwords');
  accounts
    .command('create')
    .description('create an account; prints its id and email (without --password-stdin it cannot log in to the dashboard)')
    .addOption(emailOption())
    .option('--password-stdin', passwordStdin('a dashboard password'))
    .action(async (options: { email: string; passwordStdin?: boolean }) => {
      const password = options.passwordStdin ? await readAll(io.stdin) : undefined;
      const account = await withServices(io, (s) => s.accounts.createAccount(options.email, password), { create: true });
      io.stdout.write(`${account.id} ${account.email}\n`);
      if (password === undefined) {
        io.stderr.write(`${account.email} has no dashboard password: set one with \`subpilot accounts set-password --email ${account.email} --password-stdin\`\n`);
      }
    });
  accounts
    .command('set-password')
    .description("set (or replace) an account's dashboard password and end its dashboard sessions")
    .addOption(emailOption())
    .requiredOption('--password-stdin', passwordStdin('the new password'))
    .addHelpText('after', `
Example (the password stays out of the shell history and the process list):
  read -rs PASSWORD && printf '%s\\n' "$PASSWORD" | subpilot accounts set-password --email you@example.com --password-stdin`)
    .action(async (options: { email: string }) => {
      const password = await readAll(io.stdin);
      const { account, endedSessions } = await withServices(io, (s) => s.sessions.setPassword(options.email, password));
      io.stdout.write(`password set for ${account.email}; dashboard sessions ended: ${endedSessions}\n`);
    });
  accounts
    .command('list')
    .description('list every account, oldest first: email, id, balance, active keys, created')
    .option('--json', 'print a JSON array instead of a table')
    .action(async (options: { json?: boolean }) => {
      const rows = await withServices(io, (s) => s.accounts.listAccounts());
      const view = rows.map((a) => ({ email: a.email, id: a.id, balance: a.balance, keys: a.active_keys, created_at: a.created_at }));
      if (options.json) return void io.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
      const cells = view.map((a) => [a.email, a.id, String(a.balance), String(a.keys), a.created_at]);
      io.stdout.write(formatTable(['EMAIL', 'ID', 'BALANCE', 'KEYS', 'CREATED'], cells));
    });
  return accounts;
}
