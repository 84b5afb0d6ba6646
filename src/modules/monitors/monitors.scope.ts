/**
 * Where a monitor looks: the subreddits it names, or all of Reddit (`subreddits` ["r/all"]), less the
 * subreddits it excludes. Pure, one place for the rule the poller, the stream's matcher, the preview
 * and the health all read: a monitor over all of Reddit is served by the site-wide stream alone,
 * never by reading the listing /r/all/new.
 */
import { ALL_OF_REDDIT } from '../../shared/http/subreddit.ts';
import type { MonitorRow } from './monitors.tables.ts';

type Scoped = Pick<MonitorRow, 'subreddits'> & { exclude_subreddits?: string };

/** Whether the monitor watches all of Reddit (its one subreddit is r/all, stored so by the subreddit rule). */
export const isAllOfReddit = (monitor: Pick<MonitorRow, 'subreddits'>) => {
  const names = JSON.parse(monitor.subreddits) as string[];
  return names.length === 1 && names[0]!.toLowerCase() === ALL_OF_REDDIT;
};

/** Lower-case names without "r/". */
const bare = (names: string[]) => names.map((s) => s.slice(2).toLowerCase());

/** What the monitor wants of a subreddit (lower-case, without "r/"): every one but the excluded over all of Reddit, else the named ones but the excluded. */
export function wantsSubreddit(monitor: Scoped): (name: string) => boolean {
  const excluded = new Set(bare(JSON.parse(monitor.exclude_subreddits ?? '[]') as string[]));
  if (isAllOfReddit(monitor)) return (name) => !excluded.has(name);
  const named = new Set(bare(JSON.parse(monitor.subreddits) as string[]));
  return (name) => named.has(name) && !excluded.has(name);
}
