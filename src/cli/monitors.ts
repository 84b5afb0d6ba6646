import { Command, InvalidArgumentError } from 'commander';
import { subredditName, subredditProblem } from '../shared/http/subreddit.ts';
import { formatTable, type CliIo } from './io.ts';
import { emailOption, withServices } from './operator.ts';

/**
 * The subreddit by the rule every entry point follows (subreddit.ts), as r/name. Checked in the action,
 * not by an option parser, whose error would repeat the value whole, a key pasted by mistake included.
 */
const subredditOption = (value: string | undefined) => {
  if (value === undefined) return undefined;
  const name = subredditName(value);
  if (name === null) throw new InvalidArgumentError(`--subreddit ${subredditProblem(value)}`);
  return name;
};

export function monitorsCommand(io: CliIo): Command {
  const monitors = new Command('monitors').description("look at an account's monitors");
  monitors
    .command('list')
    .description("list an account's monitors, newest first: id, name, status (and why paused), subreddits, keywords, matches today (UTC), created")
    .addOption(emailOption())
    .option('--subreddit <name>', 'only the monitors watching this subreddit: r/name, name, /r/name or a reddit.com/r/name link')
    .option('--json', 'print a JSON array instead of a table')
    .action(async (options: { email: string; subreddit?: string; json?: boolean }) => {
      const subreddit = subredditOption(options.subreddit);
      const rows = await withServices(io, async (s) => s.monitors.list((await s.accounts.requireByEmail(options.email)).id, { subreddit }));
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
