/**
 * The subreddit directory: what each subreddit is (available, private, banned, quarantined, missing or
 * refused without a reason), its spelling and its NSFW mark. Read from the database; only names never
 * seen or last checked more than a day ago are asked of Reddit, all of them in one go. It knows nothing
 * of scrapes, so anything that must know a subreddit's state before paying for it can use it.
 */
import type { Database } from '../../shared/db/database.ts';
import type { RedditClient } from '../../integrations/reddit/reddit.client.ts';
import { createSubredditsRepository, type SubredditRow } from './subreddits.repository.ts';

/** Entries older than this are asked of Reddit again. */
export const DIRECTORY_MAX_AGE_MS = 24 * 60 * 60 * 1000;

type SubredditState = SubredditRow['state'];

export interface SubredditEntry {
  /** Lower-case, without "r/". */
  name: string;
  displayName: string;
  state: SubredditState;
  nsfw: boolean;
  checkedAt: string;
}

const toEntry = (row: SubredditRow): SubredditEntry => ({
  name: row.name,
  displayName: row.display_name,
  state: row.state,
  nsfw: Number(row.nsfw) === 1,
  checkedAt: row.checked_at,
});

export function createSubredditsUsecases(deps: {
  db: Database;
  reddit: Pick<RedditClient, 'describeSubreddits'> | null;
  clock: () => Date;
}) {
  const repository = createSubredditsRepository(deps.db);

  return {
    /**
     * Each name's entry (names without "r/", any case), in the order asked; entries older than
     * `maxAgeMs` (default a day; the monitors' poller asks more often) are asked of Reddit again. Throws what the Reddit
     * client throws (RedditUnavailableError, RedditBlockedError) when a refresh is needed and fails.
     */
    async lookup(names: string[], maxAgeMs = DIRECTORY_MAX_AGE_MS): Promise<SubredditEntry[]> {
      const wanted = [...new Set(names.map((name) => name.toLowerCase()))];
      const now = deps.clock();
      const freshAfter = new Date(now.getTime() - maxAgeMs).toISOString();
      const known = new Map((await repository.find(wanted)).map((row) => [row.name, row]));
      const stale = wanted.filter((name) => {
        const row = known.get(name);
        return !row || row.checked_at <= freshAfter;
      });
      if (stale.length > 0) {
        if (!deps.reddit) throw new Error('the subreddit directory needs Reddit to refresh entries');
        const checkedAt = now.toISOString();
        const rows = (await deps.reddit.describeSubreddits(stale)).map(
          (d): SubredditRow => ({
            name: d.name.toLowerCase(),
            display_name: d.displayName,
            state: d.state,
            nsfw: d.nsfw ? 1 : 0,
            checked_at: checkedAt,
          }),
        );
        await repository.save(rows);
        for (const row of rows) known.set(row.name, row);
      }
      return names.map((name) => toEntry(known.get(name.toLowerCase())!));
    },

    /**
     * The stored entries of these names (without "r/", any case), however old, without asking Reddit:
     * for showing what is known (a monitor's health) where a Reddit call is not worth its budget.
     * Names never checked are absent.
     */
    async known(names: string[]): Promise<SubredditEntry[]> {
      return (await repository.find([...new Set(names.map((name) => name.toLowerCase()))])).map(toEntry);
    },

    /** Records what a search learnt about a subreddit since it was looked up (it went private, say). */
    async record(name: string, state: SubredditState): Promise<void> {
      const previous = (await repository.find([name.toLowerCase()]))[0];
      await repository.save([
        {
          name: name.toLowerCase(),
          display_name: previous?.display_name ?? name,
          state,
          nsfw: previous?.nsfw ?? 0,
          checked_at: deps.clock().toISOString(),
        },
      ]);
    },
  };
}

export type SubredditsUsecases = ReturnType<typeof createSubredditsUsecases>;
