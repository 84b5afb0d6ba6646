import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server, type CallToolResult } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { AppError } from '../shared/errors.ts';
import type { CliIo } from './io.ts';

/** A failure of the remote call as a tool error the model can read, instead of a protocol error it never sees. */
const unreachable = (error: unknown): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `The subpilot server did not answer the call: ${error instanceof Error ? error.message : String(error)}` }],
});

/**
 * Connects to the remote endpoint first, so a wrong URL or key ends the command with one line saying
 * so, then serves standard input and output until the client closes them. Only tools are relayed:
 * the remote serves nothing else. The process's own stdio, not `io`: the protocol needs the streams.
 */
export async function relay(url: URL, key: string, io: CliIo, version: string): Promise<void> {
  const remote = new Client({ name: 'subpilot-mcp-bridge', version }, { versionNegotiation: { mode: 'auto' } });
  try {
    await remote.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new AppError({ code: 'mcp.bridge', status: 502, message: `could not connect to ${url.origin}${url.pathname}: ${why}` });
  }
  io.stderr.write(`subpilot mcp: relaying to ${url.origin}${url.pathname}\n`);
  const closed = new Promise<void>((resolve) => process.stdin.once('close', resolve).once('end', resolve));
  const handle = serveStdio(
    () => {
      // The remote server's name and version, as a client connected to it directly would see them.
      const info = remote.getServerVersion() ?? { name: 'subpilot', version };
      const server = new Server(info, { capabilities: { tools: {} }, instructions: remote.getInstructions() });
      server.setRequestHandler('tools/list', async (request) => {
        const { tools, nextCursor } = await remote.listTools(request.params);
        return { tools, ...(nextCursor ? { nextCursor } : {}) };
      });
      server.setRequestHandler('tools/call', async (request) => (await remote.callTool(request.params).catch(unreachable)) as CallToolResult);
      return server;
    },
    { transport: new StdioServerTransport(process.stdin, process.stdout) },
  );
  await closed;
  await handle.close();
  await remote.close();
}
