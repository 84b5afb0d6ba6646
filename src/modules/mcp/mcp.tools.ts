import type { Static } from 'typebox';
import { pageQuerySchema } from '../../shared/http/schemas.ts';
import { fittedPage } from './mcp.results.ts';
import { argumentsOf } from './mcp.schemas.ts';
import { credits, tool, type Tool, type ToolDeps } from './mcp.tools-kit.ts';
import { monitorTools } from './mcp.tools-monitors.ts';
import { scrapeTools } from './mcp.tools-scrape.ts';
import { writingTools } from './mcp.tools-writing.ts';

const accountTools = ({ credits: ledger }: ToolDeps) => [
  tool<Record<string, never>>({
    name: 'get_balance',
    title: 'Get the credit balance',
    description: 'The credits this account can spend now (held credits of running scrapes excluded). Free: spends no credits.',
    scope: 'read',
    schema: argumentsOf(null),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (caller) => {
      const balance = await ledger.spendableBalance(caller.accountId);
      return { summary: `The balance is ${credits(balance)}.`, data: { balance } };
    },
  }),
  tool<Static<typeof pageQuerySchema>>({
    name: 'list_usage',
    title: 'List credit usage',
    description:
      "This account's ledger, newest first: every charge, refund and grant with what it was for, which key made it and through which " +
      'interface (via: api, mcp, dashboard). Up to 100 a page (limit; pass next_cursor as cursor for the next). Free: spends no credits.',
    scope: 'read',
    schema: argumentsOf(pageQuerySchema),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (caller, args) =>
      fittedPage(
        args.limit ?? 20,
        (limit) => ledger.usage(caller.accountId, { limit, cursor: args.cursor }),
        (page) => ({
          summary: [
            `${page.data.length} ledger entr${page.data.length === 1 ? 'y' : 'ies'}${page.has_more ? `; older ones with cursor ${page.next_cursor}` : ''}.`,
            ...page.data.slice(0, 20).map((e) => `- ${e.created_at} ${e.amount > 0 ? '+' : ''}${e.amount} → ${e.balance_after}: ${e.description}`),
          ].join('\n'),
          data: page,
        }),
      ),
  }),
];

/**
 * Every tool, in the order `tools/list` shows them: the same on every call, and the most used first,
 * since some agents load only the first few tools of a server. Adding one is a decision (agents cap
 * how many tools they load, and long lists cost them context), not a side effect of a new route.
 */
export const toolsOf = (deps: ToolDeps): Tool[] => [
  ...scrapeTools(deps),
  ...monitorTools(deps),
  ...writingTools(deps),
  ...accountTools(deps),
];
