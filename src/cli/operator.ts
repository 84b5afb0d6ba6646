import { Command, InvalidArgumentError, Option } from 'commander';
import type { CliServices } from '../app/cli-services.ts';
import { loadConfig } from '../shared/config/config.ts';
import { formatTable, type CliIo } from './io.ts';

/**
 * Opens the database for one operator command and always closes it afterwards. Imported here rather
 * than at the top, so `--help` and `--version` load no database code.
 */
export async function withServices<T>(io: CliIo, work: (services: CliServices) => Promise<T>): Promise<T> {
  const { createCliServices } = await import('../app/cli-services.ts');
  const services = await createCliServices(loadConfig(io.env));
  try {
    return await work(services);
  } finally {
    await services.close();
  }
}

export const emailOption = () => new Option('--email <email>', "the account's email address").makeOptionMandatory();

const positiveInteger = (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(`amount must be a whole number above 0, got "${value}"`);
  }
  return Number(value);
};

export function creditsCommand(io: CliIo): Command {
  const credits = new Command('credits').description('manage credit balances');
  credits
    .command('grant')
    .description("add credits to an account's balance (a grant entry in its ledger); prints the new balance")
    .addOption(emailOption())
    .requiredOption('--amount <n>', 'credits to add, a whole number above 0', positiveInteger)
    .option('--reason <text>', 'why, kept in the ledger entry', 'operator grant')
    .action(async (options: { email: string; amount: number; reason: string }) => {
      const balance = await withServices(io, async (s) => {
        const account = await s.accounts.requireByEmail(options.email);
        return s.credits.grant(account.id, options.amount, options.reason);
      });
      io.stdout.write(`${balance}\n`);
    });
  return credits;
}

export function keysCommand(io: CliIo): Command {
  const keys = new Command('keys').description("manage an account's API keys");
  keys
    .command('create')
    .description('create an API key; prints its token alone on stdout, the only time it is shown')
    .addOption(emailOption())
    .requiredOption('--name <name>', 'a name for the key, unique among the active keys of the account')
    .action(async (options: { email: string; name: string }) => {
      const { key, token } = await withServices(io, async (s) =>
        s.keys.createKey((await s.accounts.requireByEmail(options.email)).id, options.name),
      );
      io.stderr.write(`created key "${key.name}" (${key.prefix}…) for ${options.email}; the token is shown only this once\n`);
      io.stdout.write(`${token}\n`);
    });
  keys
    .command('list')
    .description("list an account's keys (name, prefix, state, created, last used); never the tokens")
    .addOption(emailOption())
    .option('--json', 'print a JSON array instead of a table')
    .action(async (options: { email: string; json?: boolean }) => {
      const rows = await withServices(io, async (s) => s.keys.listKeys((await s.accounts.requireByEmail(options.email)).id));
      const view = rows.map((k) => ({
        name: k.name,
        prefix: k.prefix,
        state: k.revoked_at ? 'revoked' : 'active',
        created_at: k.created_at,
        last_used_at: k.last_used_at,
      }));
      if (options.json) return void io.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
      const cells = view.map((k) => [k.name, k.prefix, k.state, k.created_at, k.last_used_at ?? 'never']);
      io.stdout.write(formatTable(['NAME', 'PREFIX', 'STATE', 'CREATED', 'LAST USED'], cells));
    });
  keys
    .command('revoke')
    .description('revoke an active key, chosen by name or by prefix; effective on the next request')
    .addOption(emailOption())
    .option('--name <name>', 'the name of the key')
    .option('--prefix <prefix>', 'ak_live_ and the 8 characters shown by keys list')
    .action(async (options: { email: string; name?: string; prefix?: string }) => {
      const { name, prefix } = options;
      if (!name === !prefix) throw new InvalidArgumentError('give exactly one of --name or --prefix');
      const selector = name ? { name } : { prefix: prefix! };
      const revoked = await withServices(io, async (s) =>
        s.keys.revokeKey((await s.accounts.requireByEmail(options.email)).id, selector),
      );
      for (const k of revoked) io.stdout.write(`revoked ${k.name} ${k.prefix}\n`);
    });
  return keys;
}
