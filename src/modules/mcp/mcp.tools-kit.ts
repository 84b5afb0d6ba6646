import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { TSchema } from 'typebox';
import type { Prices } from '../../shared/config/config.ts';
import type { CreditsUsecases } from '../credits/credits.usecases.ts';
import type { AlertsUsecases } from '../destinations/alerts/alerts.usecases.ts';
import type { DestinationsUsecases } from '../destinations/destinations.usecases.ts';
import type { GenerateUsecases } from '../generate/generate.usecases.ts';
import type { IdempotencyUsecases } from '../idempotency/idempotency.usecases.ts';
import type { Caller } from '../keys/keys.usecases.ts';
import type { Scope } from '../keys/keys.scopes.ts';
import type { InboxUsecases } from '../monitors/inbox/inbox.usecases.ts';
import type { MonitorsUsecases } from '../monitors/monitors.usecases.ts';
import type { PublishUsecases } from '../publish/publish.usecases.ts';
import type { ScrapeUsecases } from '../scrape/scrape.usecases.ts';
import { pageQuerySchema } from '../../shared/http/schemas.ts';
import type { Page } from '../../shared/http/pagination.ts';
import { fittedPage, type ToolAnswer } from './mcp.results.ts';
import { argumentsOf } from './mcp.schemas.ts';

/** The usecases the tools call: the same ones, with the same caller, as the API's routes. */
export interface ToolDeps {
  scrape: ScrapeUsecases;
  monitors: MonitorsUsecases;
  inbox: InboxUsecases;
  generate: GenerateUsecases;
  publish: PublishUsecases;
  credits: CreditsUsecases;
  /** Alert destinations (listed) and a monitor's routes to them (made). */
  destinations: Pick<DestinationsUsecases, 'list'>;
  alerts: Pick<AlertsUsecases, 'route'>;
  /** The API's Idempotency-Keys, for the billable tools' `idempotency_key` (mcp.tools-once.ts). */
  idempotency: IdempotencyUsecases;
  prices: Prices;
  /** Matches a day a monitor's preview may estimate before creating or changing it needs confirm_volume. */
  previewDailyLimit: number;
  /** How long search_reddit waits for a scrape before answering with its id, as POST /scrape does. */
  scrapeWaitMs: number;
}

/**
 * One tool: the scope a key needs for it (as the matching route's `config.scope`), its arguments as
 * a schema made of the route's own schemas, and what it does with them.
 */
export interface Tool {
  name: string;
  title: string;
  /** What the model reads to choose it: what it does, what it costs, every side effect. */
  description: string;
  scope: Scope;
  schema: TSchema;
  annotations: ToolAnnotations;
  // The arguments have passed `schema`; each tool reads them as its route reads its body.
  run: (caller: Caller, args: never) => Promise<ToolAnswer>;
}

/** A tool whose `run` is typed by its arguments, stored with the others. */
export const tool = <A>(definition: Omit<Tool, 'run'> & { run: (caller: Caller, args: A) => Promise<ToolAnswer> }): Tool =>
  definition as Tool;

export const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/** Marks a line about the demo source's item or a simulated publication, so no agent takes it for Reddit's. */
export const demoMark = (item: { source: 'reddit' | 'demo' }) => (item.source === 'demo' ? '[demo, not real Reddit] ' : '');

/** "Charged 3 credits; balance 97." from the `credits` member every billable answer carries. */
export function chargeLine(view: { credits: { charged: number; balance?: number } }): string {
  const { charged, balance } = view.credits;
  return `Charged ${credits(charged)}${balance === undefined ? '' : `; balance ${credits(balance)}`}.`;
}

/**
 * A free read of one of the account's lists, newest first, paged as the API pages it (`limit`,
 * `cursor`): the page as the JSON, and a line per item (up to 20) in the text.
 */
export const pagedTool = <T>(definition: {
  name: string;
  title: string;
  description: string;
  noun: [one: string, many: string];
  list: (accountId: string, page: { limit: number; cursor?: string }) => Promise<Page<T>>;
  line: (item: T) => string;
}): Tool =>
  tool<{ limit?: number; cursor?: string }>({
    name: definition.name,
    title: definition.title,
    description: `${definition.description} Up to 100 a page (limit; pass next_cursor as cursor for the next). Free: spends no credits.`,
    scope: 'read',
    schema: argumentsOf(pageQuerySchema),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (caller, args) =>
      fittedPage(
        args.limit ?? 20,
        (limit) => definition.list(caller.accountId, { limit, cursor: args.cursor }),
        (page) => {
          const [one, many] = definition.noun;
          const more = page.has_more ? `; more with cursor ${page.next_cursor}` : '';
          const lines = page.data.slice(0, 20).map((item) => `- ${definition.line(item)}`);
          return { summary: [`${page.data.length} ${page.data.length === 1 ? one : many}${more}.`, ...lines].join('\n'), data: page };
        },
      ),
  });
