import { Command } from 'commander';
import { AppError } from '../shared/errors.ts';
import type { CliIo } from './io.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const bridgeError = (message: string) => new AppError({ code: 'mcp.bridge', status: 400, message });

/** The server's /mcp from the base URL an operator gives; a key goes only to https, or to this machine. */
export function bridgeTarget(base: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw bridgeError(`--url must be the server's address, like https://subpilot.example.com (got "${base.slice(0, 80)}")`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw bridgeError('--url must use https (plain http only to this machine): the API key travels in every request');
  }
  if (!url.pathname.endsWith('/mcp')) url.pathname = `${url.pathname.replace(/\/$/, '')}/mcp`;
  return url;
}

/**
 * `subpilot mcp --url <base>`: an MCP server on standard input and output for clients that only start
 * local servers, relaying every tools/list and tools/call to the remote /mcp with the key from
 * SUBPILOT_API_KEY (never an argument: arguments show in process lists and shell history).
 */
export function mcpCommand(io: CliIo, version: string): Command {
  return new Command('mcp')
    .description('serve MCP on stdin/stdout, relayed to a subpilot server\'s /mcp with the API key in SUBPILOT_API_KEY')
    .requiredOption('--url <base>', 'the server, e.g. https://subpilot.example.com')
    .action(async (options: { url: string }) => {
      const key = io.env.SUBPILOT_API_KEY?.trim();
      if (!key) throw bridgeError('set SUBPILOT_API_KEY to an API key (ak_live_…) from the dashboard\'s API keys page');
      const { relay } = await import('./mcp-bridge.ts');
      await relay(bridgeTarget(options.url), key, io, version);
    });
}
