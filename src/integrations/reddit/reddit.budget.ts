/**
 * The one Reddit request budget: Reddit allows an OAuth app 100 requests a minute in all, shared by
 * every account and every instance of the service. Each API call takes one slot of the current
 * minute first; the slots are shared fairly between the consumers (accounts, or the system) that are
 * asking at the same time. Where the counts live (memory, PostgreSQL, Redis) is the store's business.
 */
import { budgetUsedUp } from './reddit.ratelimit.ts';

/** The consumer of calls made for no account in particular (subreddit look-ups). */
export const SYSTEM_CONSUMER = 'system';
/**
 * The monitors' poller: it goes last. It takes no share from the others and, while any other consumer
 * competes, leaves a quarter of the window to them; monitors read less often instead (their interval
 * stretches), so a one-off scrape is never held back by the background reading.
 */
export const MONITORS_CONSUMER = 'monitors';
/**
 * The site-wide stream (src/modules/monitors/stream/): it has a fixed share of every window of its
 * own (`streamPerMinute`, from REDDIT_STREAM_SHARE) and never more; the others share the rest as if
 * the window were that much smaller, so the stream neither takes from them nor waits for them.
 */
export const STREAM_CONSUMER = 'stream';

const WINDOW_MS = 60_000;
/**
 * A consumer counts as competing this long after its last request (longer when it was told to wait:
 * until then plus this). Long enough to cover the gap between two calls of one scrape; short enough
 * that a consumer who stopped no longer holds back the others.
 */
export const ACTIVE_MS = 5_000;

/** One consumer's line: its calls in the window starting at `window` (ms), and until when it competes. */
export interface BudgetEntry {
  consumer: string;
  window: number;
  used: number;
  activeUntil: number;
}

export interface BudgetStore {
  /**
   * Runs `work` over every entry that may matter at `nowMs` (this window's, and those still
   * competing) with no other decision in between, on any instance, and saves the entry it returns.
   */
  transact<T>(nowMs: number, work: (entries: BudgetEntry[]) => { result: T; save: BudgetEntry }): Promise<T>;
  close(): Promise<void>;
}

export type Decision = { granted: true } | { granted: false; retryAtMs: number };

export const windowOf = (nowMs: number) => nowMs - (nowMs % WINDOW_MS);

/**
 * Whether `consumer` may make one call now. Never more than `perMinute` calls in a window in all.
 * While others compete, each may take an equal share of the window (at least one call); alone, a
 * consumer may use all of it. A consumer that already took more than its share before the others
 * came (a burst) waits, and the others take what is left.
 */
export function decide(
  entries: BudgetEntry[],
  consumer: string,
  nowMs: number,
  allPerMinute: number,
  streamPerMinute = 0,
): { result: Decision; save: BudgetEntry } {
  const window = windowOf(nowMs);
  const windowEnd = window + WINDOW_MS;
  const usedOf = (entry: BudgetEntry | undefined) => (entry && entry.window === window ? entry.used : 0);
  const mine = entries.find((entry) => entry.consumer === consumer);
  // The stream's share is its own: the others count only their calls against what is left of the window.
  const stream = consumer === STREAM_CONSUMER;
  const perMinute = stream ? Math.min(streamPerMinute, allPerMinute) : allPerMinute - Math.min(streamPerMinute, allPerMinute);
  const total = stream ? usedOf(mine) : entries.reduce((sum, entry) => sum + (entry.consumer === STREAM_CONSUMER ? 0 : usedOf(entry)), 0);
  const others = entries.filter(
    (entry) => entry.consumer !== consumer && entry.consumer !== MONITORS_CONSUMER && entry.consumer !== STREAM_CONSUMER && entry.activeUntil > nowMs,
  );
  const share = Math.max(1, Math.floor(perMinute / (others.length + 1)));
  let result: Decision = { granted: true };
  if (total >= perMinute) result = { granted: false, retryAtMs: windowEnd };
  else if (stream) {
    // Alone in its share: nothing more to weigh.
  } else if (consumer === MONITORS_CONSUMER) {
    if (others.length > 0 && total >= perMinute - Math.ceil(perMinute / 4)) result = { granted: false, retryAtMs: windowEnd };
  } else if (others.length > 0 && usedOf(mine) >= share) {
    // Ask again when the window turns or when one of the others may have stopped competing.
    result = { granted: false, retryAtMs: Math.min(windowEnd, ...others.map((entry) => entry.activeUntil)) };
  }
  const activeUntil = Math.max(mine?.activeUntil ?? 0, nowMs + ACTIVE_MS, result.granted ? 0 : result.retryAtMs + ACTIVE_MS);
  return { result, save: { consumer, window, used: usedOf(mine) + (result.granted ? 1 : 0), activeUntil } };
}

export interface RedditBudget {
  /** Takes one slot for `consumer`, waiting for the next window up to a bound; then RedditUnavailableError with Retry-After. */
  take(consumer: string): Promise<void>;
  close(): Promise<void>;
}

export function createRedditBudget(deps: {
  store: BudgetStore;
  perMinute: number;
  /** The stream's own calls a minute, within `perMinute` (0: no stream). */
  streamPerMinute?: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** How long one call may wait for a slot in all (default: one window and a bit). */
  maxWaitMs?: number;
}): RedditBudget {
  const { store, perMinute, now, sleep } = deps;
  const maxWaitMs = deps.maxWaitMs ?? WINDOW_MS + ACTIVE_MS;
  return {
    async take(consumer) {
      const deadline = now() + maxWaitMs;
      for (;;) {
        const at = now();
        const decision = await store.transact(at, (entries) => decide(entries, consumer, at, perMinute, deps.streamPerMinute ?? 0));
        if (decision.granted) return;
        if (decision.retryAtMs > deadline) throw budgetUsedUp(perMinute, decision.retryAtMs - now());
        await sleep(Math.max(0, decision.retryAtMs - now()));
      }
    },
    close: () => store.close(),
  };
}

/** One process (SQLite): the entries in memory, decisions one at a time by construction. */
export function createMemoryBudgetStore(): BudgetStore {
  const entries = new Map<string, BudgetEntry>();
  return {
    async transact(nowMs, work) {
      const window = windowOf(nowMs);
      for (const [consumer, entry] of entries) {
        if (entry.window !== window && entry.activeUntil <= nowMs) entries.delete(consumer);
      }
      const { result, save } = work([...entries.values()]);
      entries.set(save.consumer, save);
      return result;
    },
    async close() {},
  };
}
