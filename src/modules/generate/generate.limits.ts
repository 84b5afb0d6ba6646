/**
 * The most characters of a draft's `instructions`, wherever they come from (POST /generate's schema,
 * the Inbox's draft form and MCP's draft_reply through inbox.draftReply): one figure, in a file that
 * loads no schema code.
 */
export const MAX_INSTRUCTIONS = 2000;
