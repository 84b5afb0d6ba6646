import { plural } from '../../shared/text.ts';
import type { EventEmitter } from 'node:events';
import type { JobsConfig, Prices } from '../../shared/config/config.ts';
import { transaction, type Database } from '../../shared/db/database.ts';
import { newId } from '../../shared/crypto/ids.ts';
import type { JobQueue } from '../../shared/jobs/jobs.queue.ts';
import { decodeCursor, toPage } from '../../shared/http/pagination.ts';
import { creditsErrors } from '../credits/credits.errors.ts';
import { holdFor } from '../credits/credits.prices.ts';
import { creditsIn } from '../credits/credits.usecases.ts';
import type { Payer } from '../../shared/via.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { scrapeErrors } from './scrape.errors.ts';
import { normalizeScrapeBody, searchKeywords, type ScrapeRequest, type ScrapeResult } from './scrape.matching.ts';
import { createScrapesRepository } from './scrape.repository.ts';
import type { ScrapeRow } from './scrape.tables.ts';
import { toScrapeView } from './scrape.view.ts';
import { BLOCKED_ERROR_PREFIX, SCRAPE_QUEUE, scrapeJobOptions, type ScrapeSettled } from './scrape.runner.ts';
import type { ScrapeBody } from './scrape.schemas.ts';
import { idempotencyIn, type IdempotencyClaim } from '../idempotency/idempotency.usecases.ts';
import { afterCommitOf, commitOf, type Committing } from '../../shared/outcomes.ts';

const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A keyword or subreddit as a results filter names it: without case and without direction controls,
 * which a select's option cannot isolate (no <bdi> there), so the dashboard offers them without.
 */
export const withoutDirectionControls = (text: string) => text.replace(BIDI_CONTROLS, '');
export const filterText = (text: string) => withoutDirectionControls(text).toLowerCase();

/** How often a waiting request looks at the database, for scrapes run by another process. */
const WAIT_POLL_MS = 200;

/** A post or comment this account's scrapes found, as the newest of them stored it (generate replies to it without asking Reddit). */
export async function findScrapedItem(db: Database, accountId: string, fullname: string): Promise<ScrapeResult | undefined> {
  const results = await createScrapesRepository(db).newestResultsWith(accountId, fullname);
  return results ? (JSON.parse(results) as ScrapeResult[]).find((r) => r.id === fullname) : undefined;
}

/** A scrape being created, as its answers name it when the database fails around the commit. */
export const committingScrape = (id: string, price: number): Committing => ({
  noun: 'scrape',
  id,
  idField: 'scrape_id',
  location: `/api/v1/scrapes/${id}`,
  money: `holds ${plural(price, 'credit')} until it ends (then only what it found is charged)`,
});

export function createScrapeUsecases(deps: {
  db: Database;
  redditConfigured: boolean;
  clock: () => Date;
  random: RandomBytes;
  prices: Prices;
  jobs: JobQueue;
  jobsConfig: JobsConfig;
  events: EventEmitter;
  /** How a waiting request pauses between looks at the database; its deadline is the clock's. */
  sleep: (ms: number) => Promise<void>;
  assertWebhookUrl: (url: string) => Promise<void>;
}) {
  const { db, clock, random, prices, jobs, jobsConfig, events, sleep } = deps;
  const scrapes = createScrapesRepository(db);
  /** Reads of the balance outside a transaction: built once, as every refused call reads it. */
  const balances = creditsIn(db);

  /** Resolves with how the scrape ended, or undefined when it is still running after `timeoutMs`. */
  async function waitForSettled(id: string, timeoutMs: number): Promise<ScrapeSettled | undefined> {
    let settled: ScrapeSettled | undefined;
    let wake = () => {};
    const listener = (event: ScrapeSettled) => {
      if (event.id !== id) return;
      settled = event;
      wake();
    };
    events.on('settled', listener);
    const deadline = clock().getTime() + timeoutMs;
    try {
      for (;;) {
        if (settled) return settled;
        const row = await scrapes.statusOf(id);
        if (row?.status === 'completed' || row?.status === 'failed') return settled ?? { id, status: row.status };
        const left = deadline - clock().getTime();
        if (left <= 0) return undefined;
        // News from this process's worker ends the pause at once, news that came during the read too.
        const news = new Promise<void>((resolve) => {
          wake = resolve;
          if (settled) resolve();
        });
        await Promise.race([sleep(Math.min(WAIT_POLL_MS, left)), news]);
      }
    } finally {
      events.off('settled', listener);
    }
  }

  /**
   * The answer for a scrape as it stands: `done` when it completed (200), else accepted (202 with its
   * Location): a scrape still queued or running is never answered as if it had ended. A failed one is its
   * error, with the id. A retry with the request's Idempotency-Key gets this too (scrape.routes.ts).
   * `settled` is what this process's worker said about a scrape it ran, which the stored row cannot.
   */
  async function outcome(accountId: string, id: string, options: { respondAsync: boolean; settled?: ScrapeSettled }) {
    const stored = await scrapes.findForAccount(accountId, id);
    if (!stored) throw scrapeErrors.notFound();
    const balance = await balances.spendableBalance(accountId);
    if (stored.status === 'failed' && !options.respondAsync) {
      const { settled } = options;
      if (settled?.blocked || stored.error?.startsWith(BLOCKED_ERROR_PREFIX)) throw scrapeErrors.redditBlocked(id, stored.error);
      throw scrapeErrors.upstreamUnavailable(id, stored.error, settled?.upstreamStatus, settled?.retryAfterSeconds);
    }
    return { done: stored.status === 'completed' && !options.respondAsync, scrape: toScrapeView(stored, balance) };
  }

  return {
    /**
     * Holds the price (the most it can cost: see creditsIn for why a scrape holds) and queues the scrape. Unless the caller prefers an async answer, waits up to
     * SCRAPE_SYNC_WAIT_MS for it: `done` says whether the returned scrape has finished.
     */
    async submit(caller: Payer, body: ScrapeBody, options: { respondAsync: boolean; idempotency: IdempotencyClaim | null }) {
      const request = normalizeScrapeBody(body);
      if (!deps.redditConfigured) throw scrapeErrors.notConfigured();
      if (body.webhook_url) await deps.assertWebhookUrl(body.webhook_url);
      const price = holdFor(prices, { subreddits: request.subreddits.length, keywords: searchKeywords(request).length });
      // A balance already too small needs no write to refuse; the guarded hold below decides the rest.
      const available = await balances.spendableBalance(caller.accountId);
      if (available < price) throw creditsErrors.insufficient(available, price);
      const now = clock();
      const row: ScrapeRow = {
        id: newId('scr', now, random),
        account_id: caller.accountId,
        key_id: caller.keyId,
        status: 'queued',
        request: JSON.stringify(request),
        results: null,
        unavailable: null,
        skipped: 0,
        price,
        charged: 0,
        error: null,
        lease_expires_at: null,
        created_at: now.toISOString(),
        completed_at: null,
        attempts: 0,
        webhook_url: body.webhook_url ?? null,
        via: caller.via,
      };
      const committing = committingScrape(row.id, price);
      // The key, the hold and the queued scrape commit together: no hold without a scrape to settle it,
      // and no retry with the key that runs it twice.
      await commitOf(committing, () =>
        transaction(db, async (trx) => {
          await idempotencyIn(trx).bind(options.idempotency, row.id, row.created_at);
          await creditsIn(trx).hold({ accountId: caller.accountId, keyId: caller.keyId, amount: price, at: row.created_at });
          await createScrapesRepository(trx).insert(row);
        }),
      );
      return afterCommitOf(committing, async () => {
        // Sent after the commit; should it be lost, recoverStalled (scrape.runner.ts) queues the scrape again.
        await jobs.send(SCRAPE_QUEUE, { scrape_id: row.id }, scrapeJobOptions(jobsConfig));
        const settled = options.respondAsync ? undefined : await waitForSettled(row.id, jobsConfig.syncWaitMs);
        return outcome(caller.accountId, row.id, { respondAsync: options.respondAsync, settled });
      });
    },

    outcome,

    async get(accountId: string, id: string) {
      const row = await scrapes.findForAccount(accountId, id);
      if (!row) throw scrapeErrors.notFound();
      return toScrapeView(row);
    },

    /** The scrape with one page of its results, narrowed to one of its keywords and/or subreddits (see filterText). */
    async resultsPage(accountId: string, id: string, options: { keyword?: string; subreddit?: string; page: number; pageSize: number }) {
      const row = await scrapes.findForAccount(accountId, id);
      if (!row) throw scrapeErrors.notFound();
      const scrape = toScrapeView(row);
      const same = (a: string, b?: string) => b === undefined || filterText(a) === filterText(b);
      const matching = scrape.results.filter(
        (r) => same(r.subreddit, options.subreddit) && (options.keyword === undefined || r.matched_keywords.some((k) => same(k, options.keyword))),
      );
      const pages = Math.max(1, Math.ceil(matching.length / options.pageSize));
      const page = Math.min(Math.max(1, options.page), pages);
      const start = (page - 1) * options.pageSize;
      const matchingComments = matching.filter((r) => r.type === 'comment').length;
      return { scrape, results: matching.slice(start, start + options.pageSize), matching: matching.length, matchingComments, offset: start, page, pages };
    },

    async list(accountId: string, options: { limit: number; cursor?: string }) {
      const before = decodeCursor(options.cursor, /^scr_[0-9a-f]{28}$/);
      const rows = await scrapes.page(accountId, options.limit, before);
      const page = toPage(rows, options.limit, (row) => row.id);
      return {
        ...page,
        data: page.data.map(({ result_count, ...row }) => {
          const { results: _results, ...view } = toScrapeView({ ...row, results: null } as ScrapeRow);
          // PostgreSQL's driver may hand an integer back as text.
          return { ...view, result_count: Number(result_count) };
        }),
      };
    },
  };
}

export type ScrapeUsecases = ReturnType<typeof createScrapeUsecases>;
