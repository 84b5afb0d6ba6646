import type { ScrapeRequest } from './scrape.matching.ts';
import type { ScrapeRow } from './scrape.tables.ts';

/** A scrape as the API, the dashboard and its webhook events show it; `balance` only in the answer to the request that paid. */
export function toScrapeView(row: ScrapeRow, balance?: number) {
  const request = JSON.parse(row.request) as ScrapeRequest;
  return {
    id: row.id,
    status: row.status,
    ...request,
    webhook_url: row.webhook_url,
    results: row.results ? JSON.parse(row.results) : [],
    unavailable: row.unavailable ? JSON.parse(row.unavailable) : [],
    skipped: row.skipped,
    credits: balance === undefined ? { charged: row.charged } : { charged: row.charged, balance },
    error: row.error,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}
