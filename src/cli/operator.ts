import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../shared/config/config.ts';
import { createServices, type Services } from '../app/container.ts';
import { readAll, type CliIo } from './io.ts';

/** Opens the services for one operator command and always closes the database afterwards. */
async function withServices<T>(io: CliIo, work: (services: Services) => Promise<T>): Promise<T> {
  const services = await createServices(loadConfig(io.env), { reddit: null });
  try {
    return await work(services);
  } finally {
    await services.close();
  }
}

const positiveInteger = (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(`amount must be a whole number above 0, got "${value}"`);
  }
  return Number(value);
};

export function accountsCommand(io: CliIo): Command {
  const accounts = new Command('accounts').description('manage accounts');
  accounts
    .command('create')
    .requiredOption('--email <email>')
    .option('--password-stdin', 'read a dashboard password from standard input')
    .action(async (options: { email: string; passwordStdin?: boolean }) => {
      const password = options.passwordStdin ? await readAll(io.stdin) : undefined;
      const account = await withServices(io, (s) => s.accounts.createAccount(options.email, password));
      io.stdout.write(`${account.id} ${account.email}\n`);
    });
  return accounts;
}

export function creditsCommand(io: CliIo): Command {
  const credits = new Command('credits').description('manage credit balances');
  credits
    .command('grant')
    .requiredOption('--email <email>')
    .requiredOption('--amount <n>', 'credits to add', positiveInteger)
    .option('--reason <text>')
    .action(async (options: { email: string; amount: number; reason?: string }) => {
      const balance = await withServices(io, async (s) => {
        const account = await s.accounts.requireByEmail(options.email);
        return s.credits.grant(account.id, options.amount, options.reason ?? 'operator grant');
      });
      io.stdout.write(`${balance}\n`);
    });
  return credits;
}

export function keysCommand(io: CliIo): Command {
  const keys = new Command('keys').description('manage API keys');
  keys
    .command('create')
    .requiredOption('--email <email>')
    .requiredOption('--name <name>')
    .action(async (options: { email: string; name: string }) => {
      const { key, token } = await withServices(io, async (s) =>
        s.keys.createKey((await s.accounts.requireByEmail(options.email)).id, options.name),
      );
      io.stderr.write(`created key "${key.name}" (${key.prefix}…) for ${options.email}; the token is shown only this once\n`);
      io.stdout.write(`${token}\n`);
    });
  keys
    .command('list')
    .requiredOption('--email <email>')
    .option('--json', 'print JSON')
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
      for (const k of view) {
        io.stdout.write(`${k.name}\t${k.prefix}\t${k.state}\t${k.created_at}\t${k.last_used_at ?? 'never'}\n`);
      }
    });
  keys
    .command('revoke')
    .requiredOption('--email <email>')
    .option('--name <name>')
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
