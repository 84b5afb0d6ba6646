import Type from 'typebox';
import type { ScrapeBody } from '../scrape/scrape.schemas.ts';
import { scrapeBodySchema, scrapeParamsSchema } from '../scrape/scrape.schemas.ts';
import { excerpt, fittingSlice, MAX_RESULT_CHARS, type ToolAnswer } from './mcp.results.ts';
import { idempotencyKeyArgument, onceFor } from './mcp.tools-once.ts';
import { argumentsOf } from './mcp.schemas.ts';
import { chargeLine, credits, demoMark, tool, type ToolDeps } from './mcp.tools-kit.ts';

type ScrapeView = Awaited<ReturnType<ToolDeps['scrape']['get']>>;
type Result = ScrapeView['results'][number];

/** Results named in the text: enough for a model to pick from; the JSON holds them all. */
const LISTED = 10;

const line = (r: Result) => `- ${demoMark(r)}${r.id} in ${r.subreddit} by u/${r.author}: ${excerpt(r.type === 'comment' ? r.body : r.title, 120)} (${r.permalink})`;

/**
 * A scrape as a tool answers it: the API's JSON with as many results from `offset` as fit, and
 * `results_page` saying which they are and where the next part starts.
 */
function scrapeAnswer(view: ScrapeView, offset: number): ToolAnswer {
  const head = `Scrape ${view.id} of ${view.subreddits.join(', ')} for ${view.keywords.map((k) => `"${k}"`).join(', ')}`;
  if (view.status === 'failed') return { summary: `${head} failed: ${view.error}. Nothing was charged.`, data: view };
  if (view.status !== 'completed') {
    const summary = `${head} is still ${view.status}; credits are held, not yet charged. Call get_scrape with id ${view.id} in a few seconds.`;
    return { summary, data: view };
  }
  const { results, ...rest } = view;
  const room = MAX_RESULT_CHARS - JSON.stringify(rest).length - 4_000;
  const { slice, next } = fittingSlice(results, offset, room);
  const page = { offset, returned: slice.length, total: results.length, next_offset: next };
  const shown = slice.length === 0 ? 'none' : `${offset + 1}–${offset + slice.length}`;
  const summary = [
    `${head} completed: ${results.length} result${results.length === 1 ? '' : 's'} (here ${shown}). ${chargeLine(view)}`,
    ...slice.slice(0, LISTED).map(line),
    ...(slice.length > LISTED ? [`…and ${slice.length - LISTED} more in the structured content.`] : []),
    ...(next === null ? [] : [`More results: call get_scrape with id ${view.id} and results_offset ${next}.`]),
    ...(view.unavailable.length > 0 ? [`Unavailable (refunded): ${view.unavailable.map((u: { subreddit: string; reason: string }) => `${u.subreddit} (${u.reason})`).join(', ')}.`] : []),
  ].join('\n');
  return { summary, data: { ...rest, results: slice, results_page: page } };
}

const resultsOffset = Type.Optional(
  Type.Integer({ minimum: 0, maximum: 10_000, description: 'The first result to return, counted from 0 (results_page.next_offset of the previous answer)' }),
);

export const scrapeTools = ({ scrape, idempotency, prices, scrapeWaitMs }: ToolDeps) => [
  tool<ScrapeBody & { idempotency_key?: string }>({
    name: 'search_reddit',
    title: 'Search Reddit',
    description:
      `Finds Reddit posts and/or comments in the given subreddits that contain the keywords (a scrape). Costs ${credits(prices.scrapePair)} ` +
      'per subreddit × keyword pair, held when it starts and charged when it completes; pairs of unavailable subreddits are refunded, ' +
      `and a Reddit outage refunds everything. Waits up to ${Math.round(scrapeWaitMs / 1000)} s: returns the results, or the scrape id to poll with get_scrape. ` +
      'Side effects: spends credits; reads Reddit; with webhook_url, POSTs the outcome there. Up to 500 results; long answers are ' +
      'split (results_page.next_offset → get_scrape). Retrying after a lost answer? Send the same idempotency_key: never charged twice.',
    scope: 'scrape',
    schema: argumentsOf(scrapeBodySchema, { idempotency_key: idempotencyKeyArgument }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: (caller, args) =>
      onceFor<ScrapeBody>(idempotency, caller, 'search_reddit', args, {
        run: async (claim, body) => {
          const { scrape: view } = await scrape.submit(caller, body, { respondAsync: false, idempotency: claim });
          return { answer: scrapeAnswer(view as ScrapeView, 0), final: view.status === 'completed' || view.status === 'failed' };
        },
        rebuild: async (id) => scrapeAnswer(await scrape.get(caller.accountId, id), 0),
      }),
  }),
  tool<{ id: string; results_offset?: number }>({
    name: 'get_scrape',
    title: 'Get a scrape',
    description:
      "One of this account's scrapes with its results, from results_offset on. Free: spends no credits. Poll it after search_reddit " +
      'answered that the scrape is still running; a long result list comes in parts (results_page.next_offset).',
    scope: 'read',
    schema: argumentsOf(scrapeParamsSchema, { results_offset: resultsOffset }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (caller, args) => scrapeAnswer(await scrape.get(caller.accountId, args.id), args.results_offset ?? 0),
  }),
];
