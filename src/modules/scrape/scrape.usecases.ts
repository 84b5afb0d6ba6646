import { transaction, type Database } from '../../app/database.ts';
import { newId } from '../../app/ids.ts';
import { decodeCursor, toPage } from '../../app/pagination.ts';
import { RedditUnavailableError, type RedditClient } from '../../integrations/reddit/reddit.client.ts';
import { createCreditsRepository } from '../credits/credits.repository.ts';
import { chargeIn } from '../credits/credits.usecases.ts';
import type { Caller } from '../keys/keys.usecases.ts';
import type { RandomBytes } from '../keys/keys.tokens.ts';
import { scrapeErrors } from './scrape.errors.ts';
import { normalizeScrapeBody, selectResults, type ScrapeRequest } from './scrape.matching.ts';
import { createScrapesRepository, type ScrapeRow } from './scrape.repository.ts';
import type { ScrapeBody } from './scrape.schemas.ts';

/** A running scrape whose process died is refunded once its lease is this old. */
export const SCRAPE_LEASE_MS = 10 * 60_000;

export function toScrapeView(row: ScrapeRow, balance?: number) {
  const request = JSON.parse(row.request) as ScrapeRequest;
  return {
    id: row.id,
    status: row.status,
    ...request,
    results: row.results ? JSON.parse(row.results) : [],
    unavailable: row.unavailable ? JSON.parse(row.unavailable) : [],
    credits: balance === undefined ? { charged: row.charged } : { charged: row.charged, balance },
    error: row.error,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}

export function createScrapeUsecases(deps: {
  db: Database;
  reddit: RedditClient | null;
  clock: () => Date;
  random: RandomBytes;
  pricePerPair: number;
}) {
  const { db, reddit, clock, random, pricePerPair } = deps;
  const scrapes = createScrapesRepository(db);

  /** Writes the outcome and its refund in one transaction; a no-op when someone else settled first. */
  async function settle(row: ScrapeRow, outcome: Partial<ScrapeRow> & { refund: number }) {
    const { refund, ...change } = outcome;
    return transaction(db, async (trx) => {
      const settled = await createScrapesRepository(trx).settle(row.id, {
        status: change.status ?? 'failed',
        results: change.results ?? null,
        unavailable: change.unavailable ?? null,
        error: change.error ?? null,
        charged: row.charged - refund,
        completed_at: clock().toISOString(),
      });
      const credits = createCreditsRepository(trx);
      if (settled && refund > 0) {
        await credits.apply({
          accountId: row.account_id,
          kind: 'refund',
          amount: refund,
          keyId: row.key_id,
          scrapeId: row.id,
          reason: change.error ?? 'unavailable subreddits',
          at: clock().toISOString(),
        });
      }
      return { settled, balance: (await credits.balanceOf(row.account_id)) ?? 0 };
    });
  }

  return {
    async scrape(caller: Caller, body: ScrapeBody) {
      const request = normalizeScrapeBody(body);
      if (!reddit) throw scrapeErrors.notConfigured();
      const price = pricePerPair * request.subreddits.length * request.keywords.length;
      const now = clock();
      const row: ScrapeRow = {
        id: newId('scr', now, random),
        account_id: caller.accountId,
        key_id: caller.keyId,
        status: 'running',
        request: JSON.stringify(request),
        results: null,
        unavailable: null,
        price,
        charged: price,
        error: null,
        lease_expires_at: new Date(now.getTime() + SCRAPE_LEASE_MS).toISOString(),
        created_at: now.toISOString(),
        completed_at: null,
      };
      // Charge first and record the running scrape in the same transaction: a crash after this
      // point leaves a leased row that recovery refunds, never a charge without a record.
      await transaction(db, async (trx) => {
        await chargeIn(createCreditsRepository(trx), {
          accountId: caller.accountId,
          price,
          keyId: caller.keyId,
          scrapeId: row.id,
          at: now.toISOString(),
        });
        await createScrapesRepository(trx).insert(row);
      });

      let output;
      try {
        output = await reddit.search({
          subreddits: request.subreddits.map((s) => s.slice(2)),
          keywords: request.keywords,
          sort: request.sort,
          time: request.time,
          limit: request.limit,
          includeNsfw: request.include_nsfw,
        });
      } catch (error) {
        const message = error instanceof RedditUnavailableError ? error.message : 'the scrape failed unexpectedly';
        await settle(row, { status: 'failed', error: message, refund: price });
        if (error instanceof RedditUnavailableError) {
          throw scrapeErrors.upstreamUnavailable(row.id, error.upstreamStatus, error.retryAfterSeconds);
        }
        throw error;
      }

      const unavailable = output.unavailable.map((u) => ({ subreddit: `r/${u.subreddit}`, reason: u.reason }));
      const completed = {
        status: 'completed' as const,
        results: JSON.stringify(selectResults(output.posts, request)),
        unavailable: JSON.stringify(unavailable),
        refund: pricePerPair * unavailable.length * request.keywords.length,
      };
      const { balance } = await settle(row, completed);
      const stored = await scrapes.findForAccount(caller.accountId, row.id);
      return toScrapeView(stored!, balance);
    },

    async get(accountId: string, id: string) {
      const row = await scrapes.findForAccount(accountId, id);
      if (!row) throw scrapeErrors.notFound();
      return toScrapeView(row);
    },

    async list(accountId: string, options: { limit: number; cursor?: string }) {
      const before = decodeCursor(options.cursor, /^scr_[0-9a-f]{28}$/);
      const rows = await scrapes.page(accountId, options.limit, before);
      const page = toPage(rows, options.limit, (row) => row.id);
      return {
        ...page,
        data: page.data.map((row) => {
          const { results: _results, ...view } = toScrapeView({ ...row, results: null } as ScrapeRow);
          return view;
        }),
      };
    },

    /** Refunds scrapes whose process died mid-job (lease expired). Returns how many were settled. */
    async recoverAbandoned(): Promise<number> {
      const abandoned = await scrapes.findAbandoned(clock().toISOString());
      let count = 0;
      for (const row of abandoned) {
        const { settled } = await settle(row as ScrapeRow, {
          status: 'failed',
          error: 'the service stopped before the scrape finished; the charge was refunded',
          refund: row.charged,
        });
        if (settled) count += 1;
      }
      return count;
    },
  };
}

export type ScrapeUsecases = ReturnType<typeof createScrapeUsecases>;
