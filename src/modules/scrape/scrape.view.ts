import type { ScrapeRequest, ScrapeResult } from './scrape.matching.ts';
import type { ScrapeRow } from './scrape.tables.ts';
import { sourceOf } from '../../shared/demo.ts';

/** A result as stored: those of scrapes from before comments could be read carry no type. */
type StoredResult = Omit<ScrapeResult, 'type'> & { type?: ScrapeResult['type'] };

/** A scrape as the API, the dashboard and its webhook events show it; `balance` only in the answer to the request that paid. */
export function toScrapeView(row: ScrapeRow, balance?: number) {
  const request = JSON.parse(row.request) as ScrapeRequest;
  return {
    id: row.id,
    status: row.status,
    ...request,
    // Scrapes stored before queries had none.
    query: request.query ?? null,
    // Scrapes stored before the choice matched anywhere in the text.
    match: request.match ?? 'phrase',
    // Scrapes stored before comments could be read searched posts only.
    sources: request.sources ?? ['posts'],
    webhook_url: row.webhook_url,
    results: row.results ? (JSON.parse(row.results) as StoredResult[]).map((result) => ({ ...result, type: result.type ?? 'post', source: sourceOf(result.id) })) : [],
    unavailable: row.unavailable ? JSON.parse(row.unavailable) : [],
    skipped: row.skipped,
    credits: balance === undefined ? { charged: row.charged } : { charged: row.charged, balance },
    error: row.error,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}
