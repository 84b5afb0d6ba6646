import { Command } from 'commander';
import { formatTable, type CliIo } from './io.ts';
import { emailOption, withServices } from './operator.ts';

export function monitorsCommand(io: CliIo): Command {
  const monitors = new Command('monitors').description("look at an account's monitors");
  monitors
    .command('list')
    .description("list an account's monitors, newest first: id, name, status (and why paused), subreddits, keywords, matches today (UTC), created")
    .addOption(emailOption())
    .option('--json', 'print a JSON array instead of a table')
    .action(async (options: { email: string; json?: boolean }) => {
      const rows = await withServices(io, async (s) => s.monitors.list((await s.accounts.requireByEmail(options.email)).id));
      if (options.json) return void io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      const cells = rows.map((m) => [
        m.id,
        m.name,
        m.paused_reason ? `${m.status} (${m.paused_reason})` : m.status,
        String(m.subreddits),
        String(m.keywords),
        String(m.matches_today),
        m.created_at,
      ]);
      io.stdout.write(formatTable(['ID', 'NAME', 'STATUS', 'SUBREDDITS', 'KEYWORDS', 'MATCHES TODAY', 'CREATED'], cells));
    });
  return monitors;
}
