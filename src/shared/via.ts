/**
 * Through which interface a billable call came: `api`, the REST API under /api/v1; `mcp`, the MCP
 * server acting with a key; `dashboard`, a person signed in to the dashboard (a session, no key).
 * Stored as `via` on scrapes, generations, publications and monitors (migration 0017), so the ledger
 * can say where spend came from; null on older rows for which nothing recorded it.
 */
export type Via = 'api' | 'mcp' | 'dashboard';
