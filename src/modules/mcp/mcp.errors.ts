import { AppError } from '../../shared/errors.ts';

export const mcpErrors = {
  /** A body whose JSON nests deeper than any tool's arguments do: the protocol library would recurse through it. */
  tooDeep: (max: number) =>
    new AppError({
      code: 'mcp.too_deep',
      status: 422,
      message: `The request's JSON is nested more than ${max} levels deep; no tool's arguments come near that. Send the arguments as the tool's schema describes them.`,
    }),
  /** A Host this server was not configured to answer for: a page rebinding its own name to us (DNS rebinding), or a missing PUBLIC_URL. */
  hostNotAllowed: () =>
    new AppError({
      code: 'mcp.host_not_allowed',
      status: 403,
      message:
        'The Host header names an address this server does not answer MCP on. Connect through PUBLIC_URL; an operator whose clients ' +
        'use another address sets PUBLIC_URL to it.',
    }),
  /** A browser page from another site: MCP clients outside a browser send no Origin. */
  originNotAllowed: () =>
    new AppError({
      code: 'mcp.origin_not_allowed',
      status: 403,
      message: 'Requests from web pages of other sites may not use the MCP endpoint (their Origin is not this server).',
    }),
  /**
   * What OAuth discovery finds here. Publishing protected-resource metadata would send clients into
   * an OAuth flow no authorization server can finish; a 404 tells them there is none, and in words.
   */
  noOAuth: () =>
    new AppError({
      code: 'mcp.no_oauth',
      status: 404,
      message:
        'This server takes API keys, not OAuth: there is no authorization server. Send the header ' +
        '"Authorization: Bearer ak_live_…" with a key from the dashboard\'s API keys page (MCP clients: add it as a custom header).',
    }),
};
