import Type, { type Static } from 'typebox';
import { scrapeBodySchema, type ScrapeBody } from '../scrape/scrape.schemas.ts';
import { checkerOf } from '../../shared/http/checker.ts';
import type { ScrapeForm } from './views/scrape-form.ts';

/*
 * The Scrapes page's form in the API's terms: what it posts, the body POST /api/v1/scrape would take
 * from it, checked by the same schema in the same words, and the fields as typed to refill the form.
 */

export const scrapeFormBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  // The form's own Idempotency-Key (its page makes one): a second press, or a reload, starts one scrape.
  attempt: Type.String({ pattern: '^dashboard-[0-9a-f-]{36}$', 'x-rule': 'must be the key its page gave' }),
  subreddits: Type.String({ maxLength: 10_000 }),
  keywords: Type.String({ maxLength: 10_000 }),
  query: Type.Optional(Type.String({ maxLength: 4000 })),
  // The form always sends one empty `sources` (a hidden field), so no box ticked reads as "none".
  sources: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Array(Type.String({ maxLength: 20 }), { maxItems: 4 })])),
  time: Type.Optional(Type.String({ maxLength: 20 })),
  limit: Type.Optional(Type.String({ maxLength: 20 })),
});
export type ScrapeFormBody = Static<typeof scrapeFormBody>;

/** An empty form: the API's defaults. */
export const EMPTY_SCRAPE_FORM: ScrapeForm = { subreddits: '', keywords: '', query: '', sources: ['posts'], time: 'week', limit: '100' };

export const scrapeFormOf = (body: ScrapeFormBody): ScrapeForm => ({
  subreddits: body.subreddits,
  keywords: body.keywords,
  query: body.query ?? '',
  sources: [body.sources ?? []].flat().filter(Boolean),
  time: body.time ?? 'week',
  limit: body.limit?.trim() ?? '',
});

const lines = (text: string) => text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
const checkScrape = checkerOf<ScrapeBody>('/dashboard/scrapes', scrapeBodySchema, 'The scrape is');

/**
 * The API's body: subreddits one per line or comma separated, each as typed (the API's one rule,
 * shared/http/subreddit.ts, takes `name`, `r/name` or a link, as the monitor form relies on); keywords one
 * per line; an empty query or limit is left out (the API's default). Checked here, so a refusal reads as
 * the API's would.
 */
export function scrapeBodyOf(form: ScrapeForm): ScrapeBody {
  const limit = form.limit.trim();
  return checkScrape({
    subreddits: form.subreddits.split(/[\s,]+/).filter(Boolean),
    ...(lines(form.keywords).length > 0 ? { keywords: lines(form.keywords) } : {}),
    ...(form.query.trim() ? { query: form.query.trim() } : {}),
    sources: form.sources,
    time: form.time,
    ...(limit ? { limit: /^\d+$/.test(limit) ? Number(limit) : limit } : {}),
  });
}
