import type { EventEmitter } from 'node:events';
import type { JobsConfig } from '../../app/config.ts';
import { transaction, type Database } from '../../app/database.ts';
import type { JobQueue } from '../../app/jobs.ts';
import { RedditUnavailableError, type RedditClient } from '../../integrations/reddit/reddit.client.ts';
import { createCreditsRepository } from '../credits/credits.repository.ts';
import { selectResults, type ScrapeRequest } from './scrape.matching.ts';
import { createScrapesRepository, type ScrapeRow } from './scrape.repository.ts';

export const SCRAPE_QUEUE = 'scrape';
/** A scrape whose worker died this many times is failed and its hold released. */
export const MAX_ATTEMPTS = 3;

export interface ScrapeSettled {
  id: string;
  status: 'completed' | 'failed';
  upstreamStatus?: number;
  retryAfterSeconds?: number;
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
  clock: () => Date;
  jobs: JobQueue;
  jobsConfig: JobsConfig;
  pricePerPair: number;
  events: EventEmitter;
  onSettled: (row: ScrapeRow) => Promise<void>;
}) {
  const { db, reddit, clock, jobs, jobsConfig, pricePerPair, events, onSettled } = deps;
  const scrapes = createScrapesRepository(db);

  async function settle(row: ScrapeRow, outcome: Pick<ScrapeRow, 'status' | 'results' | 'unavailable' | 'error'> & { charge: number }) {
    const now = clock().toISOString();
    const settled = await transaction(db, async (trx) => {
      const done = await createScrapesRepository(trx).settle(row.id, row.attempts, {
        status: outcome.status,
        results: outcome.results,
        unavailable: outcome.unavailable,
        error: outcome.error,
        charged: outcome.charge,
        completed_at: now,
      });
      if (done) {
        await createCreditsRepository(trx).settleHold({
          accountId: row.account_id,
          held: row.price,
          charge: outcome.charge,
          keyId: row.key_id,
          scrapeId: row.id,
          at: now,
        });
      }
      return done;
    });
    if (settled) await onSettled({ ...row, ...outcome, charged: outcome.charge, completed_at: now });
    return settled;
  }

  const failed = (row: ScrapeRow, error: string) =>
    settle(row, { status: 'failed', results: null, unavailable: null, error, charge: 0 });

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
        await failed(row, reddit ? 'the scrape was interrupted too many times; the hold was released' : 'Reddit is not configured');
        events.emit('settled', { id: row.id, status: 'failed' } satisfies ScrapeSettled);
        return;
      }
      const request = JSON.parse(row.request) as ScrapeRequest;
      try {
        const output = await reddit.search({
          subreddits: request.subreddits.map((s) => s.slice(2)),
          keywords: request.keywords,
          sort: request.sort,
          time: request.time,
          limit: request.limit,
          includeNsfw: request.include_nsfw,
        });
        const unavailable = output.unavailable.map((u) => ({ subreddit: `r/${u.subreddit}`, reason: u.reason }));
        await settle(row, {
          status: 'completed',
          results: JSON.stringify(selectResults(output.posts, request)),
          unavailable: JSON.stringify(unavailable),
          error: null,
          // Pairs of unavailable subreddits are not charged: only the rest of the hold is captured.
          charge: row.price - pricePerPair * unavailable.length * request.keywords.length,
        });
        events.emit('settled', { id: row.id, status: 'completed' } satisfies ScrapeSettled);
      } catch (error) {
        const upstream = error instanceof RedditUnavailableError ? error : undefined;
        await failed(row, upstream ? upstream.message : 'the scrape failed unexpectedly; the hold was released');
        events.emit('settled', {
          id: row.id,
          status: 'failed',
          upstreamStatus: upstream?.upstreamStatus,
          retryAfterSeconds: upstream?.retryAfterSeconds,
        } satisfies ScrapeSettled);
        if (!upstream) throw error;
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
