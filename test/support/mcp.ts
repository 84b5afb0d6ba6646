import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client';

export type Era = 'legacy' | 'modern';

/**
 * The SDK's own client over real HTTP to a running server's /mcp, speaking one protocol era: the
 * 2025-11-25 `initialize` handshake (legacy) or the stateless 2026-07-28 one found by `server/discover`.
 * `fetch` stands in for a load balancer in front of several instances.
 */
export async function mcpClient(baseUrl: string, token: string, era: Era = 'modern', fetch?: FetchLike): Promise<Client> {
  const mode = era === 'legacy' ? ('legacy' as const) : { pin: '2026-07-28' as const };
  const client = new Client({ name: 'subpilot-tests', version: '1.0.0' }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    ...(fetch ? { fetch } : {}),
  });
  await client.connect(transport);
  return client;
}

/** A tool result as the tests read it. */
export interface ToolOutcome {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
  return (await client.callTool({ name, arguments: args })) as ToolOutcome;
}

export const textOf = (outcome: ToolOutcome) => outcome.content.map((c) => c.text).join('\n');
