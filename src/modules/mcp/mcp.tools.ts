import { signed } from '../../shared/text.ts';
import { argumentsOf } from './mcp.schemas.ts';
import { alertTools } from './mcp.tools-alerts.ts';
import { inboxTools } from './mcp.tools-inbox.ts';
import { credits, pagedTool, tool, type Tool, type ToolDeps } from './mcp.tools-kit.ts';
import { monitorTools } from './mcp.tools-monitors.ts';
import { scrapeTools } from './mcp.tools-scrape.ts';
import { writingTools } from './mcp.tools-writing.ts';

type UsageEntry = Awaited<ReturnType<ToolDeps['credits']['usage']>>['data'][number];

const accountTools = ({ credits: ledger }: ToolDeps) => [
  tool<Record<string, never>>({
    name: 'get_balance',
    title: 'Get the credit balance',
    description:
      'The credits this account can spend now (held credits of running scrapes excluded), and the credits it owes after a refund ' +
      'or dispute of credits already spent (the next credits bought or granted pay them first). Free: spends no credits.',
    scope: 'read',
    schema: argumentsOf(null),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (caller) => {
      const standing = await ledger.standing(caller.accountId);
      const owed = standing.owed > 0 ? ` It owes ${credits(standing.owed)}, which the next credits bought or granted pay first.` : '';
      return { summary: `The balance is ${credits(standing.balance)}.${owed}`, data: standing };
    },
  }),
  pagedTool<UsageEntry>({
    name: 'list_usage',
    title: 'List credit usage',
    description:
      "This account's ledger, newest first: every charge, refund, grant and purchase of credits (and a purchase's refunds and disputes) " +
      'with what it was for, which key made it and through which interface (via: api, mcp, dashboard; monitor for what a monitor spent by itself).',
    noun: ['ledger entry', 'ledger entries'],
    list: (accountId, page) => ledger.usage(accountId, page),
    line: (e) => `${e.created_at} ${signed(e.amount)} → ${e.balance_after}: ${e.description}`,
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
  ...alertTools(deps),
  ...inboxTools(deps),
  ...writingTools(deps),
  ...accountTools(deps),
];
