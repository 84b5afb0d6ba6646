import { Command, InvalidArgumentError } from 'commander';
import { COVERAGE_HOURS } from '../modules/monitors/stream/stream.cycle.ts';
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
  monitors
    .command('coverage')
    .description(
      'what the site-wide stream read of all of Reddit, per hour and source, newest first (GET /api/v1/stream/coverage): ' +
        'the ids walked and how many were asked, returned, unavailable, pending and skipped, then the ranges skipped',
    )
    .option('--hours <n>', `how many hours back, the current one included: 1 to ${COVERAGE_HOURS.most}`, hoursOption, COVERAGE_HOURS.byDefault)
    .option('--json', 'print the API\'s JSON instead of tables')
    .action(async (options: { hours: number; json?: boolean }) => {
      const coverage = await withServices(io, (s) => s.streamCoverage.coverage(options.hours));
      if (options.json) return void io.stdout.write(`${JSON.stringify(coverage, null, 2)}\n`);
      if (!coverage.enabled) io.stdout.write('The stream is off in this configuration (REDDIT_STREAM_SHARE is 0, or Reddit is not the source); past hours follow.\n');
      const hours = coverage.hours.map((h) => [h.hour, h.source, `${h.first_id}…${h.last_id}`, ...[h.asked, h.returned, h.unavailable, h.pending, h.skipped].map(String)]);
      io.stdout.write(formatTable(['HOUR', 'SOURCE', 'IDS', 'ASKED', 'RETURNED', 'UNAVAILABLE', 'PENDING', 'SKIPPED'], hours));
      if (coverage.gaps.length === 0) return void io.stdout.write('No ids skipped in these hours.\n');
      io.stdout.write(`\n${formatTable(['SKIPPED', 'SOURCE', 'FROM', 'TO'], coverage.gaps.map((g) => [g.recorded_at, g.source, g.from_id, g.to_id]))}`);
    });
  return monitors;
}

/** 1 to COVERAGE_HOURS.most, as the API's `hours`. */
function hoursOption(value: string): number {
  const hours = Number(value);
  if (!/^\d+$/.test(value) || hours < 1 || hours > COVERAGE_HOURS.most) {
    throw new InvalidArgumentError(`--hours must be a whole number from 1 to ${COVERAGE_HOURS.most}, got "${value.slice(0, 20)}"`);
  }
  return hours;
}
