import { Command, InvalidArgumentError, Option } from 'commander';
import type { CliServices } from '../app/cli-services.ts';
import { loadConfig } from '../shared/config/config.ts';
import type { KeySelector } from '../modules/keys/keys.repository.ts';
import { parseScopes, SCOPES, type Scope } from '../modules/keys/keys.scopes.ts';
import type { RollOverlap } from '../modules/keys/keys.usecases.ts';
import { formatTable, type CliIo } from './io.ts';

/**
 * Opens the database for one operator command and always closes it afterwards. Imported here rather
 * than at the top, so `--help` and `--version` load no database code. Only `accounts create` passes
 * `create`: every other command works on an existing database and refuses to make an empty one.
 */
export async function withServices<T>(
  io: CliIo,
  work: (services: CliServices) => Promise<T>,
  options: { create: boolean } = { create: false },
): Promise<T> {
  const { createCliServices } = await import('../app/cli-services.ts');
  const services = await createCliServices(loadConfig(io.env), { ...options, passwords: io.passwords });
  try {
    return await work(services);
  } finally {
    await services.close();
  }
}

export const emailOption = () => new Option('--email <email>', "the account's email address").makeOptionMandatory();

/** The overlaps of `keys roll`; keys.usecases.ts (ROLL_OVERLAPS) is not imported here, as it loads the database code. */
const ROLL_OVERLAP_NAMES: readonly RollOverlap[] = ['now', '1h', '24h', '7d'];

const scopeList = (value: string) => {
  const parsed = parseScopes(value);
  if (!parsed.ok) throw new InvalidArgumentError(parsed.reason);
  return parsed.scopes;
};

// The range (1 to 1,000,000,000) is the usecase's to check, for the dashboard and the CLI alike.
const wholeNumber = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`the monthly limit is a whole number of credits, got "${value}"`);
  return Number(value);
};

const selectorOf = (options: { id?: string; name?: string; prefix?: string }, flags: string): KeySelector => {
  const { id, name, prefix } = options;
  const given = [id, name, prefix].filter((value) => value !== undefined);
  if (given.length !== 1) throw new InvalidArgumentError(`give exactly one of ${flags}`);
  return id !== undefined ? { id } : name !== undefined ? { name } : { prefix: prefix! };
};

const formatScopeList = (stored: string | null) => (stored === null ? 'all' : stored.split(' ').join(','));

export function keysCommand(io: CliIo): Command {
  const keys = new Command('keys').description("manage an account's API keys");
  keys
    .command('create')
    .description('create an API key; prints its token alone on stdout, the only time it is shown')
    .addOption(emailOption())
    .requiredOption('--name <name>', 'a name for the key, unique among the active keys of the account')
    .option('--scopes <list>', `what the key may do, comma-separated from ${SCOPES.join(', ')} (default: all)`, scopeList)
    .option('--monthly-limit <n>', 'the most credits the key may spend per calendar month (UTC), holds included (default: none)', wholeNumber)
    .option('--expires <when>', 'when the key stops working: a date (2027-01-01: it works through that UTC day) or an instant with its zone (2027-01-01T09:00:00Z)')
    .action(async (options: { email: string; name: string; scopes?: Scope[]; monthlyLimit?: number; expires?: string }) => {
      const controls = { scopes: options.scopes, monthlyCreditLimit: options.monthlyLimit, expiresAt: options.expires };
      const { key, token } = await withServices(io, async (s) =>
        s.keys.createKey((await s.accounts.requireByEmail(options.email)).id, options.name, controls),
      );
      io.stderr.write(`created key "${key.name}" (${key.prefix}…) for ${options.email}; the token is shown only this once\n`);
      io.stdout.write(`${token}\n`);
    });
  keys
    .command('roll')
    .description('replace a key with a new one of the same name, scopes and limit; prints the new token once, on stdout')
    .addOption(emailOption())
    .option('--id <id>', 'the id of the key')
    .option('--name <name>', 'the name of the key')
    .option('--prefix <prefix>', 'ak_live_ and the 8 characters shown by keys list')
    .addOption(
      new Option('--overlap <overlap>', 'how long the old key keeps working, so tools can switch over')
        .choices(ROLL_OVERLAP_NAMES)
        .default('24h'),
    )
    .action(async (options: { email: string; id?: string; name?: string; prefix?: string; overlap: RollOverlap }) => {
      const selector = selectorOf(options, '--id, --name or --prefix');
      const { key, token, replaced } = await withServices(io, async (s) =>
        s.keys.rollKey((await s.accounts.requireByEmail(options.email)).id, selector, options.overlap),
      );
      io.stderr.write(`rolled key "${key.name}": the new key ${key.prefix}… replaces ${replaced.prefix}…\n`);
      io.stderr.write(`the old key stops working at ${replaced.expires_at}; the new token is shown only this once\n`);
      io.stdout.write(`${token}\n`);
    });
  keys
    .command('list')
    .description("list an account's keys (name, prefix, state, scopes, monthly limit, expiry, created, last used); never the tokens")
    .addOption(emailOption())
    .option('--json', 'print a JSON array instead of a table')
    .action(async (options: { email: string; json?: boolean }) => {
      const rows = await withServices(io, async (s) => s.keys.listKeys((await s.accounts.requireByEmail(options.email)).id));
      const prefixOf = new Map(rows.map((k) => [k.id, k.prefix]));
      const view = rows.map((k) => ({
        name: k.name,
        prefix: k.prefix,
        state: k.state,
        scopes: formatScopeList(k.scopes),
        monthly_limit: k.monthly_credit_limit,
        expires_at: k.expires_at,
        replaced_by: k.replaced_by && (prefixOf.get(k.replaced_by) ?? null),
        created_at: k.created_at,
        last_used_at: k.last_used_at,
      }));
      if (options.json) return void io.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
      const cells = view.map((k) => [
        k.name,
        k.prefix,
        k.replaced_by ? `replaced by ${k.replaced_by}` : k.state,
        k.scopes,
        k.monthly_limit === null ? '-' : String(k.monthly_limit),
        k.expires_at ?? 'never',
        k.created_at,
        k.last_used_at ?? 'never',
      ]);
      io.stdout.write(formatTable(['NAME', 'PREFIX', 'STATE', 'SCOPES', 'MONTHLY LIMIT', 'EXPIRES', 'CREATED', 'LAST USED'], cells));
    });
  keys
    .command('revoke')
    .description('revoke an active key, chosen by name or by prefix; effective on the next request')
    .addOption(emailOption())
    .option('--name <name>', 'the name of the key')
    .option('--prefix <prefix>', 'ak_live_ and the 8 characters shown by keys list')
    .action(async (options: { email: string; name?: string; prefix?: string }) => {
      const selector = selectorOf(options, '--name or --prefix');
      const revoked = await withServices(io, async (s) =>
        s.keys.revokeKey((await s.accounts.requireByEmail(options.email)).id, selector),
      );
      for (const k of revoked) io.stdout.write(`revoked ${k.name} ${k.prefix}\n`);
    });
  return keys;
}
