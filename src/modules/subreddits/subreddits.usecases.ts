/**
 * The subreddit directory: what each subreddit is (available, private, banned, quarantined, missing or
 * refused without a reason), its spelling and its NSFW mark. Read from the database; only names never
 * seen or last checked more than a day ago are asked of Reddit, and each answer is saved as soon as it
 * is read, so a look-up of thousands of names makes progress in pieces. It knows nothing of scrapes,
 * so anything that must know a subreddit's state before paying for it can use it.
 */
import type { Database } from '../../shared/db/database.ts';
import type { RedditClient } from '../../integrations/reddit/reddit.client.ts';
import type { SubredditDescription } from '../../integrations/reddit/reddit.types.ts';
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

const toRow = (d: SubredditDescription, checkedAt: string): SubredditRow => ({
  name: d.name.toLowerCase(),
  display_name: d.displayName,
  state: d.state,
  nsfw: d.nsfw ? 1 : 0,
  checked_at: checkedAt,
});

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
     * `maxAgeMs` (default a day; the monitors' poller asks more often) are asked of Reddit again,
     * names never seen first, then the oldest. Each Reddit answer is saved as it comes, so when a
     * later request fails what was learnt is kept, and the error (RedditUnavailableError,
     * RedditBlockedError, RedditBudgetExhaustedError) still reaches the caller: a scrape must not go on
     * with names it knows nothing of, and the poller reads with what is known.
     * `maxRequests` bounds the Reddit requests of this call: the names not reached keep their old
     * entry, or have none (left out of the answer) when never seen, until a later call reaches them.
     */
    async lookup(names: string[], maxAgeMs = DIRECTORY_MAX_AGE_MS, options: { maxRequests?: number } = {}): Promise<SubredditEntry[]> {
      const wanted = [...new Set(names.map((name) => name.toLowerCase()))];
      const now = deps.clock();
      const freshAfter = new Date(now.getTime() - maxAgeMs).toISOString();
      const known = new Map((await repository.find(wanted)).map((row) => [row.name, row]));
      const checkedAt = (name: string) => known.get(name)?.checked_at ?? '';
      // Sorted by when last checked ('' = never): the least known first, so bounded calls take turns fairly.
      const stale = wanted.filter((name) => checkedAt(name) <= freshAfter).sort((a, b) => checkedAt(a).localeCompare(checkedAt(b)));
      if (stale.length > 0) {
        if (!deps.reddit) throw new Error('the subreddit directory needs Reddit to refresh entries');
        const previous = new Map(stale.map((name) => [name, known.get(name)?.state]));
        const learnt = (described: SubredditDescription[]) => {
          const rows = described.map((d) => toRow(d, now.toISOString()));
          for (const row of rows) known.set(row.name, row);
          return rows;
        };
        const described = await deps.reddit.describeSubreddits(stale, {
          maxRequests: options.maxRequests,
          previous: (name) => previous.get(name.toLowerCase()),
          onDescribed: (answer) => repository.save(learnt(answer)),
        });
        learnt(described);
      }
      return names.flatMap((name) => {
        const row = known.get(name.toLowerCase());
        return row ? [toEntry(row)] : [];
      });
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
