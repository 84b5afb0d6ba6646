import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../shared/config/config.ts';
import { createServices, type Services } from '../app/container.ts';
import { keysErrors } from '../modules/keys/keys.errors.ts';

/** Opens the services for one operator command and always closes the database afterwards. */
async function withServices<T>(work: (services: Services) => Promise<T>): Promise<T> {
  const services = await createServices(loadConfig(), { reddit: null });
  try {
    return await work(services);
  } finally {
    await services.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

const positiveInteger = (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(`amount must be a whole number above 0, got "${value}"`);
  }
  return Number(value);
};

export function accountsCommand(): Command {
  const accounts = new Command('accounts').description('manage accounts');
  accounts
    .command('create')
    .requiredOption('--email <email>')
    .option('--password-stdin', 'read a dashboard password from standard input')
    .action(async (options: { email: string; passwordStdin?: boolean }) => {
      const password = options.passwordStdin ? await readStdin() : undefined;
      const account = await withServices((s) => s.accounts.createAccount(options.email, password));
      process.stdout.write(`${account.id} ${account.email}\n`);
    });
  return accounts;
}

export function creditsCommand(): Command {
  const credits = new Command('credits').description('manage credit balances');
  credits
    .command('grant')
    .requiredOption('--email <email>')
    .requiredOption('--amount <n>', 'credits to add', positiveInteger)
    .option('--reason <text>')
    .action(async (options: { email: string; amount: number; reason?: string }) => {
      const balance = await withServices(async (s) => {
        const account = await s.accounts.requireByEmail(options.email);
        return s.credits.grant(account.id, options.amount, options.reason ?? 'operator grant');
      });
      process.stdout.write(`${balance}\n`);
    });
  return credits;
}

export function keysCommand(): Command {
  const keys = new Command('keys').description('manage API keys');
  keys
    .command('create')
    .requiredOption('--email <email>')
    .requiredOption('--name <name>')
    .action(async (options: { email: string; name: string }) => {
      const { key, token } = await withServices(async (s) =>
        s.keys.createKey((await s.accounts.requireByEmail(options.email)).id, options.name),
      );
      process.stderr.write(`created key "${key.name}" (${key.prefix}…) for ${options.email}; the token is shown only this once\n`);
      process.stdout.write(`${token}\n`);
    });
  keys
    .command('list')
    .requiredOption('--email <email>')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; json?: boolean }) => {
      const rows = await withServices(async (s) => s.keys.listKeys((await s.accounts.requireByEmail(options.email)).id));
      const view = rows.map((k) => ({
        name: k.name,
        prefix: k.prefix,
        state: k.revoked_at ? 'revoked' : 'active',
        created_at: k.created_at,
        last_used_at: k.last_used_at,
      }));
      if (options.json) return void process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
      for (const k of view) {
        process.stdout.write(`${k.name}\t${k.prefix}\t${k.state}\t${k.created_at}\t${k.last_used_at ?? 'never'}\n`);
      }
    });
  keys
    .command('revoke')
    .requiredOption('--email <email>')
    .option('--name <name>')
    .option('--prefix <prefix>', 'ak_live_ and the 8 characters shown by keys list')
    .action(async (options: { email: string; name?: string; prefix?: string }) => {
      if (!options.name === !options.prefix) throw new InvalidArgumentError('give exactly one of --name or --prefix');
      const revoked = await withServices(async (s) =>
        s.keys.revokeKey((await s.accounts.requireByEmail(options.email)).id, { name: options.name, prefix: options.prefix }),
      );
      if (revoked.length === 0) throw keysErrors.notFound();
      for (const k of revoked) process.stdout.write(`revoked ${k.name} ${k.prefix}\n`);
    });
  return keys;
}
