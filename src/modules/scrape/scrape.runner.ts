import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { JobsConfig, Prices } from '../../shared/config/config.ts';
import { transaction, type Database } from '../../shared/db/database.ts';
import type { JobQueue } from '../../shared/jobs/jobs.queue.ts';
import type { RedditClient } from '../../integrations/reddit/reddit.client.ts';
import { RedditBlockedError, RedditUnavailableError } from '../../integrations/reddit/reddit.errors.ts';
import { captureOf } from '../credits/credits.prices.ts';
import { creditsIn } from '../credits/credits.usecases.ts';
import type { SubredditEntry, SubredditsUsecases } from '../subreddits/subreddits.usecases.ts';
import { mergeResults, readComments, selectComments, windowStart } from './scrape.comments.ts';
import { searchKeywords, selectResults, type ScrapeRequest } from './scrape.matching.ts';
import type { WebhooksUsecases } from '../webhooks/webhooks.usecases.ts';
import { createScrapesRepository } from './scrape.repository.ts';
import type { ScrapeRow } from './scrape.tables.ts';
import { toScrapeView } from './scrape.view.ts';

export const SCRAPE_QUEUE = 'scrape';
/** A scrape whose worker died this many times is failed and its hold released. */
export const MAX_ATTEMPTS = 3;

export interface ScrapeSettled {
  id: string;
  status: 'completed' | 'failed';
  upstreamStatus?: number;
  retryAfterSeconds?: number;
  /** Reddit refuses the app itself (RedditBlockedError). */
  blocked?: boolean;
}

type Unavailable = { subreddit: string; reason: string };

/** How a scrape ends: completed or failed, each announced as its own event (`scrape.completed`, `scrape.failed`). */
type Outcome = Pick<ScrapeRow, 'results' | 'unavailable' | 'skipped' | 'error'> & { status: ScrapeSettled['status']; charge: number };

/** Starts the stored `error` of a scrape failed because Reddit refuses the app, so any process can tell. */
export const BLOCKED_ERROR_PREFIX = "Reddit refuses this server's app: ";

/**
 * Splits the requested subreddits (without "r/") by what the directory says: those worth searching, and
 * the others with their reason. An NSFW subreddit is skipped (reason `nsfw`) unless NSFW posts are
 * wanted, as its posts would all be dropped anyway: it is not charged for nothing.
 */
export function chooseSubreddits(names: string[], entries: SubredditEntry[], includeNsfw: boolean) {
  const searchable: string[] = [];
  const unsearchable: Unavailable[] = [];
  names.forEach((name, i) => {
    const entry = entries[i]!;
    if (entry.state !== 'ok') unsearchable.push({ subreddit: name, reason: entry.state });
    else if (entry.nsfw && !includeNsfw) unsearchable.push({ subreddit: name, reason: 'nsfw' });
    else searchable.push(name);
  });
  return { searchable, unsearchable };
}

export const scrapeJobOptions = (jobs: JobsConfig) => ({
  retryLimit: MAX_ATTEMPTS,
  retryDelaySeconds: 1,
  expireSeconds: jobs.leaseSeconds,
});

/** The worker side of a scrape: claim it, search Reddit, settle the hold exactly once, notify. */
export function createScrapeRunner(deps: {
  db: Database;
  reddit: RedditClient | null;
  /** Asked before any search, so only subreddits known to be available are searched and charged. */
  subreddits: SubredditsUsecases;
  clock: () => Date;
  jobs: JobQueue;
  jobsConfig: JobsConfig;
  prices: Prices;
  events: EventEmitter;
  /** Where a settled scrape that named a webhook URL is announced (`scrape.completed` / `scrape.failed`). */
  webhooks: Pick<WebhooksUsecases, 'enqueue'>;
  /** Skipped posts and unexpected failures, each line with the scrape id. */
  log: Pick<Logger, 'warn' | 'error'>;
}) {
  const { db, reddit, clock, jobs, jobsConfig, prices, events } = deps;
  const scrapes = createScrapesRepository(db);

  async function settle(row: ScrapeRow, outcome: Outcome) {
    const now = clock().toISOString();
    const settled = await transaction(db, async (trx) => {
      const done = await createScrapesRepository(trx).settle(row.id, row.attempts, {
        status: outcome.status,
        results: outcome.results,
        unavailable: outcome.unavailable,
        skipped: outcome.skipped,
        error: outcome.error,
        charged: outcome.charge,
        completed_at: now,
      });
      if (done) {
        await creditsIn(trx).settleHold({
          accountId: row.account_id,
          held: row.price,
          heldAt: row.created_at,
          charge: outcome.charge,
          keyId: row.key_id,
          purchase: { kind: 'scrape', id: row.id },
          at: now,
        });
      }
      return done;
    });
    if (settled) await announce({ ...row, ...outcome, charged: outcome.charge, completed_at: now });
    return settled;
  }

  /** The webhook event goes out after the settlement committed, so a receiver never hears of a scrape that rolled back. */
  async function announce(row: ScrapeRow & { status: ScrapeSettled['status'] }) {
    if (!row.webhook_url) return;
    await deps.webhooks.enqueue({
      accountId: row.account_id,
      scrapeId: row.id,
      url: row.webhook_url,
      type: `scrape.${row.status}`,
      data: toScrapeView(row),
    });
  }

  const failed = (row: ScrapeRow, error: string) =>
    settle(row, { status: 'failed', results: null, unavailable: null, skipped: 0, error, charge: 0 });

  return {
    async run(scrapeId: string): Promise<void> {
      const now = clock();
      const leaseUntil = new Date(now.getTime() + jobsConfig.leaseSeconds * 1000).toISOString();
      const row = await scrapes.claim(scrapeId, now.toISOString(), leaseUntil);
      if (!row) {
        // Another worker holds a live lease: fail this delivery so the queue tries again later.
        if ((await scrapes.statusOf(scrapeId))?.status === 'running') throw new Error('scrape is leased by another worker');
        return;
      }
      if (row.attempts > MAX_ATTEMPTS || !reddit) {
        const settled = await failed(row, reddit ? 'the scrape was interrupted too many times; the hold was released' : 'Reddit is not configured');
        if (settled) events.emit('settled', { id: row.id, status: 'failed' } satisfies ScrapeSettled);
        return;
      }
      const request = JSON.parse(row.request) as ScrapeRequest;
      try {
        const names = request.subreddits.map((s) => s.slice(2));
        const sources = request.sources ?? ['posts'];
        const { searchable, unsearchable } = chooseSubreddits(names, await deps.subreddits.lookup(names), request.include_nsfw);
        const search = {
          subreddits: searchable,
          keywords: searchKeywords(request),
          sort: request.sort,
          time: request.time,
          limit: request.limit,
          includeNsfw: request.include_nsfw,
          accountId: row.account_id,
        };
        // A combined search drops unavailable names silently, so it runs only on names known to be fine.
        const output = searchable.length > 0 && sources.includes('posts') ? await reddit.search(search) : { posts: [], unavailable: [] };
        const refused = new Set(output.unavailable.map((u) => u.subreddit));
        const comments = sources.includes('comments')
          ? await readComments(reddit, {
              subreddits: searchable.filter((name) => !refused.has(name)),
              since: windowStart(request.time, clock()),
              accountId: row.account_id,
            })
          : null;
        const found = [...output.unavailable, ...(comments?.unavailable ?? [])];
        // A subreddit that changed since the directory last looked: keep the directory up to date.
        for (const u of found) await deps.subreddits.record(u.subreddit, u.reason);
        const unavailable = [...unsearchable, ...found]
          .sort((a, b) => names.indexOf(a.subreddit) - names.indexOf(b.subreddit))
          .map((u) => ({ subreddit: `r/${u.subreddit}`, reason: u.reason }));
        // Posts Reddit sent that cannot be read are left out and counted; they never fail the scrape.
        const unreadable = output.skipped ?? [];
        if (unreadable.length > 0) {
          const items = unreadable.slice(0, 20);
          deps.log.warn({ scrape_id: row.id, skipped: unreadable.length, items }, 'posts Reddit sent could not be read and were skipped');
        }
        const settled = await settle(row, {
          status: 'completed',
          results: JSON.stringify(
            comments ? mergeResults(selectResults(output.posts, request), selectComments(comments.items, request), request) : selectResults(output.posts, request),
          ),
          unavailable: JSON.stringify(unavailable),
          skipped: unreadable.length + (comments?.skipped ?? 0),
          error: null,
          // Pairs of unavailable subreddits are not charged: only the rest of the hold is captured.
          charge: captureOf(prices, { held: row.price, unavailable: unavailable.length, keywords: searchKeywords(request).length }),
        });
        // Only a settlement that went through is news: one refused (another worker took the lease
        // meanwhile) must not make a waiting request answer for a scrape that is still running.
        if (settled) events.emit('settled', { id: row.id, status: 'completed' } satisfies ScrapeSettled);
      } catch (error) {
        const upstream = error instanceof RedditUnavailableError ? error : undefined;
        const blocked = error instanceof RedditBlockedError;
        const reason = blocked ? `${BLOCKED_ERROR_PREFIX}${upstream!.message}` : upstream?.message;
        const settled = await failed(row, reason ?? 'the scrape failed unexpectedly; the hold was released');
        if (settled) {
          events.emit('settled', {
            id: row.id,
            status: 'failed',
            upstreamStatus: upstream?.upstreamStatus,
            retryAfterSeconds: upstream?.retryAfterSeconds,
            blocked,
          } satisfies ScrapeSettled);
        }
        if (!upstream) {
          // Our own fault, not Reddit's: the operator needs the cause (never a request body or token).
          const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
          deps.log.error({ scrape_id: row.id, err: { name, message, stack } }, 'the scrape failed unexpectedly');
          throw error;
        }
      }
    },

    /**
     * Safety net for lost jobs: re-queues running scrapes whose lease ran out and queued ones that
     * waited a whole lease, and fails (releasing the hold) those interrupted too often.
     */
    async recoverStalled(): Promise<number> {
      const now = clock();
      const queuedBefore = new Date(now.getTime() - jobsConfig.leaseSeconds * 1000).toISOString();
      const stalled = await scrapes.findStalled(now.toISOString(), queuedBefore);
      for (const row of stalled) {
        if (row.status === 'running' && row.attempts >= MAX_ATTEMPTS) {
          await failed(row, 'the scrape was interrupted too many times; the hold was released');
        } else {
          await jobs.send(SCRAPE_QUEUE, { scrape_id: row.id }, scrapeJobOptions(jobsConfig));
        }
      }
      return stalled.length;
    },
  };
}

export type ScrapeRunner = ReturnType<typeof createScrapeRunner>;
