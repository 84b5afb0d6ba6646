/**
 * The poller's eye on Reddit as a whole: it counts how each listing request went, and at the end of a
 * cycle's reading stores the state seen (monitors.reddit-app.ts decides) when it changed, logs the
 * change once at warn and sends one `monitor.health` to each active monitor. The state is stored, so
 * a restart, or another instance taking the poller over, does not tell the same change again.
 */
import type { Logger } from 'pino';
import type { Database } from '../../../shared/db/database.ts';
import type { RedditClient } from '../../../integrations/reddit/reddit.client.ts';
import type { MatchDelivery } from './poller.delivery.ts';
import { changeMessage, changeOf, noReads, observedState, outcomeOf, type RedditAppState } from '../monitors.reddit-app.ts';
import { createObservedStateRepository } from '../monitors.observed-state.repository.ts';
import type { MonitorRow } from '../monitors.tables.ts';

type Listing = Pick<RedditClient, 'listing'>;

export function watchRedditApp(deps: {
  db: Database;
  reddit: Listing | null;
  log: Pick<Logger, 'warn'>;
  announce: MatchDelivery['announce'];
}) {
  const repo = createObservedStateRepository<RedditAppState>(deps.db, 'monitors');
  let tally = noReads();
  const inner = deps.reddit;

  /** The client the poller reads through: the same answers and errors, each one counted. */
  const reddit: Listing | null = inner && {
    async listing(query) {
      try {
        const answer = await inner.listing(query);
        // A subreddit refused for itself (private, banned…) is still Reddit answering the app.
        tally.ok++;
        return answer;
      } catch (error) {
        const outcome = outcomeOf(error);
        if (outcome) tally[outcome]++;
        throw error;
      }
    },
  };

  /** Called once at the end of each cycle's reading, with the monitors that cycle read for. */
  async function settle(monitors: MonitorRow[], at: string): Promise<void> {
    const observed = observedState(tally);
    tally = noReads();
    const stored = await repo.read();
    const next = changeOf(stored, observed, at);
    if (!next || !(await repo.move(stored, next))) return;
    deps.log.warn({ reddit_state: next.state, previous_state: stored.state, since: next.since }, changeMessage(next.state));
    for (const monitor of monitors) await deps.announce(monitor, 'monitor.health', { reddit: next });
  }

  return { reddit, settle };
}
