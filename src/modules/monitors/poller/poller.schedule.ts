/**
 * Which subreddits a poller cycle reads, and in what order, so that no account can take the shared
 * Reddit budget from the others. Pure: the poller gives it the monitors and when each subreddit was
 * last read, and reads the groups it returns in order until its share of the budget for the cycle is
 * spent; what is left is read first in the next cycle.
 *
 * Fair share by rounds: in round r every account that still wants something gets its next 100
 * subreddit-sources (least recently read first), so an account with 10,000 subreddits gets no
 * further ahead of one with 3 than one group per round. The names of all accounts in a round are
 * packed together, 100 to a request, so small accounts share requests and the number of requests
 * still grows with distinct subreddits, not accounts.
 */
import { MAX_SUBREDDITS_PER_LISTING } from '../../../integrations/reddit/reddit.query.ts';
import { subredditsOf } from './poller.cycle.ts';
import type { MonitorRow, MonitorSource } from '../monitors.tables.ts';

export interface PlannedGroup {
  source: MonitorSource;
  /** Lower-case, without "r/", at most 100. */
  names: string[];
}

/** When each subreddit was last read well, per source (lower-case name → ISO time); absent: never. */
export type LastReads = Record<MonitorSource, Map<string, string>>;

const SOURCES: MonitorSource[] = ['posts', 'comments'];

/** Each account's subreddit-sources, least recently read first (never read before all), then by name. */
function wantsByAccount(monitors: MonitorRow[], readable: (name: string) => boolean, lastRead: LastReads) {
  const wants = new Map<string, Map<string, { source: MonitorSource; name: string }>>();
  for (const monitor of monitors) {
    const mine = wants.get(monitor.account_id) ?? new Map();
    wants.set(monitor.account_id, mine);
    for (const source of JSON.parse(monitor.sources) as MonitorSource[]) {
      for (const name of subredditsOf(monitor)) if (readable(name)) mine.set(`${source}:${name}`, { source, name });
    }
  }
  const when = (want: { source: MonitorSource; name: string }) => lastRead[want.source].get(want.name) ?? '';
  return [...wants.keys()].sort().map((account) =>
    [...wants.get(account)!.values()].sort((a, b) => when(a).localeCompare(when(b)) || a.name.localeCompare(b.name) || a.source.localeCompare(b.source)),
  );
}

/**
 * The groups to read, most deserving first: every account's first round before anyone's second.
 * `readable` says whether a name may be read (false for subreddits known to be private, banned, …).
 */
export function planReads(monitors: MonitorRow[], readable: (name: string) => boolean, lastRead: LastReads): PlannedGroup[] {
  const queues = wantsByAccount(monitors, readable, lastRead);
  const scheduled = new Set<string>();
  const order: Record<MonitorSource, { name: string; round: number }[]> = { posts: [], comments: [] };
  for (let round = 0; queues.some((queue) => queue.length > round * MAX_SUBREDDITS_PER_LISTING); round++) {
    const names: Record<MonitorSource, string[]> = { posts: [], comments: [] };
    for (const queue of queues) {
      for (const want of queue.slice(round * MAX_SUBREDDITS_PER_LISTING, (round + 1) * MAX_SUBREDDITS_PER_LISTING)) {
        const key = `${want.source}:${want.name}`;
        if (scheduled.has(key)) continue; // another account's earlier round reads it already
        scheduled.add(key);
        names[want.source].push(want.name);
      }
    }
    for (const source of SOURCES) for (const name of names[source].sort()) order[source].push({ name, round });
  }
  // Packed in round order, so only the last group of a round is shared with the next round's names.
  const groups: (PlannedGroup & { round: number })[] = [];
  for (const source of SOURCES) {
    for (let i = 0; i < order[source].length; i += MAX_SUBREDDITS_PER_LISTING) {
      const slice = order[source].slice(i, i + MAX_SUBREDDITS_PER_LISTING);
      groups.push({ source, names: slice.map((entry) => entry.name), round: slice[0]!.round });
    }
  }
  return groups.sort((a, b) => a.round - b.round).map(({ source, names }) => ({ source, names }));
}

/**
 * The listing requests one cycle may make: its interval's worth of the budget, less the quarter the
 * poller leaves to one-off scrapes, so a cycle never waits for the budget and scrapes are not held back.
 */
export function requestsPerCycle(requestsPerMinute: number, intervalSeconds: number): number {
  return Math.max(1, Math.floor(((requestsPerMinute * intervalSeconds) / 60) * 0.75));
}
