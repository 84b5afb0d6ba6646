import { createMcpHandler, ProtocolError, ProtocolErrorCode, Server, type AuthInfo, type CallToolResult } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingUsecases } from '../billing/billing.usecases.ts';
import { assertScope } from '../keys/keys.hooks.ts';
import type { Caller } from '../keys/keys.usecases.ts';
import { countCall } from '../ratelimit/ratelimit.hooks.ts';
import type { RateLimitUsecases } from '../ratelimit/ratelimit.usecases.ts';
import { MAX_RESULT_CHARS, sizeOf, toolError, toolResult } from './mcp.results.ts';
import { advertisedSchema, checkerOf, withAmounts } from './mcp.schemas.ts';
import type { Tool, ToolDeps } from './mcp.tools-kit.ts';
import { toolsOf } from './mcp.tools.ts';

/** What the HTTP route hands the MCP handler for one request: who is calling, and where to log. */
export interface McpCallContext {
  caller: Caller;
  log: FastifyBaseLogger;
}

const INSTRUCTIONS =
  'subpilot reads Reddit through an approved app and bills the account behind your API key in credits. ' +
  'search_reddit finds posts and comments now; create_monitor watches for new ones and get_monitor_matches (with after) reads each once; ' +
  'list_inbox shows every match with where it stands, and draft_reply writes a reply to one; generate_draft writes a reply or post; ' +
  'publish posts a draft only with confirm: true, after a person approved the preview. ' +
  'Every tool says what it costs; get_balance and list_usage show the credits.';

/**
 * The tool list and the server's description are the same for every key and change only with a
 * release, so 2026-era clients may keep them an hour, in shared caches too, instead of asking again
 * before every call (the SDK's default is not to cache at all).
 */
const CACHE_HINTS = {
  'tools/list': { ttlMs: 3_600_000, cacheScope: 'public' },
  'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
} as const;

/**
 * The MCP endpoint: a handler that builds a fresh server for each HTTP request (nothing is kept
 * between requests, so any instance can answer any call), serving the 2025 `initialize` era and the
 * stateless 2026-07-28 era alike. Each tool call passes the API's checks in the API's order, after
 * the key the route has already checked: scope, then rate limit, then arguments, then the usecase.
 */
export function createMcpEndpoint(deps: ToolDeps & { rateLimit: RateLimitUsecases; billing: Pick<BillingUsecases, 'explainRefusal'>; version: string }) {
  const tools = toolsOf(deps);
  const checkers = new Map(tools.map((t) => [t.name, checkerOf(t.name, t.schema)]));
  const listed = tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: withAmounts(t.description, deps.prices),
    inputSchema: advertisedSchema(t.schema, deps.prices) as { type: 'object' },
    annotations: t.annotations,
  }));
  const byName = new Map(tools.map((t) => [t.name, t]));

  async function run(tool: Tool, caller: Caller, args: unknown): Promise<CallToolResult> {
    assertScope(caller, tool.scope);
    await countCall(deps.rateLimit, caller.keyId, caller.accountId);
    const answer = await tool.run(caller, checkers.get(tool.name)!(args) as never);
    // Every tool fits its own answer (pages, parts of a scrape); this is the guard that none forgot.
    const size = sizeOf(answer);
    if (size > MAX_RESULT_CHARS) throw new Error(`${tool.name} answered ${size} characters, over ${MAX_RESULT_CHARS}`);
    return toolResult(answer);
  }

  async function call({ caller, log }: McpCallContext, name: string, args: unknown): Promise<CallToolResult> {
    const tool = byName.get(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No tool is named ${JSON.stringify(name).slice(0, 80)}; tools/list names them.`);
    const started = performance.now();
    try {
      const result = await run(tool, caller, args);
      log.info({ tool: name, key_prefix: caller.keyPrefix, duration_ms: Math.round(performance.now() - started) }, 'mcp tool call');
      return result;
    } catch (error) {
      // A refusal for credits says how to get them (and `buy_url`), as the API's 402 does.
      const { result, appError } = toolError(deps.billing.explainRefusal(error));
      const level = appError.status >= 500 ? 'error' : 'info';
      log[level]({ tool: name, key_prefix: caller.keyPrefix, code: appError.code, ...(level === 'error' ? { err: error } : {}) }, 'mcp tool call refused');
      return result;
    }
  }

  const handler = createMcpHandler(
    ({ authInfo }) => {
      const context = (authInfo as AuthInfo & { extra: McpCallContext }).extra;
      const server = new Server({ name: 'subpilot', version: deps.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, cacheHints: CACHE_HINTS });
      // Counted like a tool call: a client that lists in a loop spends the same budget.
      server.setRequestHandler('tools/list', async () => {
        await countCall(deps.rateLimit, context.caller.keyId, context.caller.accountId).catch((error: unknown) => {
          const { appError } = toolError(error);
          throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${appError.message} (code ${appError.code})`);
        });
        return { tools: listed };
      });
      server.setRequestHandler('tools/call', async (request) => call(context, request.params.name, request.params.arguments));
      return server;
    },
    // The SDK's default answers each request with one JSON body unless a tool streams progress, which none does.
  );
  return { handler, tools: listed };
}
