import { Command, InvalidArgumentError } from 'commander';
import { plural, signed } from '../shared/text.ts';
import { formatTable, type CliIo } from './io.ts';
import { emailOption, withServices } from './operator.ts';

const positiveInteger = (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(`amount must be a whole number above 0, got "${value}"`);
  }
  return Number(value);
};

/** The most ledger entries one `credits list` prints; the rest are older than anyone reads in a terminal. */
const MAX_LIST = 1000;

const listLimit = (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_LIST) {
    throw new InvalidArgumentError(`--limit must be a whole number from 1 to ${MAX_LIST}, got "${value}"`);
  }
  return Number(value);
};

export function creditsCommand(io: CliIo): Command {
  const credits = new Command('credits').description('manage credit balances');
  credits
    .command('grant')
    .description("add credits to an account's balance (a grant entry in its ledger; what it owes is paid first); says what it did and the balance after")
    .addOption(emailOption())
    .requiredOption('--amount <n>', 'credits to add, a whole number above 0', positiveInteger)
    .option('--reason <text>', 'why, kept in the ledger entry', 'operator grant')
    .action(async (options: { email: string; amount: number; reason: string }) => {
      const { account, owed, balance } = await withServices(io, async (s) => {
        const account = await s.accounts.requireByEmail(options.email);
        const { owed } = await s.credits.standing(account.id);
        return { account, owed, balance: await s.credits.grant(account.id, options.amount, options.reason) };
      });
      const settled = Math.min(owed, options.amount);
      const paid = settled > 0 ? `, ${settled} of which paid what it owed` : '';
      io.stdout.write(`granted ${plural(options.amount, 'credit')} to ${account.email} (${account.id})${paid}; balance after: ${balance}\n`);
    });
  credits
    .command('list')
    .description("list an account's ledger, newest first: when, type, amount, balance after, and what it was for (a purchase: the price paid)")
    .addOption(emailOption())
    .option('--limit <n>', `how many entries, from 1 to ${MAX_LIST}`, listLimit, 20)
    .option('--json', 'print a JSON array of the entries as GET /api/v1/usage shows them instead of a table')
    .action(async (options: { email: string; limit: number; json?: boolean }) => {
      const page = await withServices(io, async (s) =>
        s.credits.usage((await s.accounts.requireByEmail(options.email)).id, { limit: options.limit }),
      );
      if (options.json) return void io.stdout.write(`${JSON.stringify(page.data, null, 2)}\n`);
      const cells = page.data.map((entry) => [entry.created_at, entry.type, signed(entry.amount), String(entry.balance_after), entry.description]);
      io.stdout.write(formatTable(['WHEN', 'TYPE', 'AMOUNT', 'BALANCE AFTER', 'DESCRIPTION'], cells));
      if (page.has_more) io.stderr.write(`older entries are not shown: --limit (up to ${MAX_LIST}) shows more\n`);
    });
  credits
    .command('balance')
    .description('print what an account can spend now (its balance less what unfinished scrapes and publications hold) and the credits it owes')
    .addOption(emailOption())
    .option('--json', 'print {"balance": …, "owed": …} as GET /api/v1/balance answers instead of two lines')
    .action(async (options: { email: string; json?: boolean }) => {
      const standing = await withServices(io, async (s) => s.credits.standing((await s.accounts.requireByEmail(options.email)).id));
      if (options.json) return void io.stdout.write(`${JSON.stringify(standing)}\n`);
      io.stdout.write(`spendable ${standing.balance}\nowed ${standing.owed}\n`);
      // Owed credits are the surprise an operator is asked about: say where they came from and where they go.
      if (standing.owed > 0) {
        io.stderr.write(`${plural(standing.owed, 'credit')} ${standing.owed === 1 ? 'was' : 'were'} taken back by a refund or dispute after ${standing.owed === 1 ? 'it was' : 'they were'} spent; the next credits bought or granted pay ${standing.owed === 1 ? 'it' : 'them'} first\n`);
      }
    });
  return credits;
}
