/**
 * Through which interface a billable call came: `api`, the REST API under /api/v1; `mcp`, the MCP
 * server acting with a key; `dashboard`, a person signed in to the dashboard (a session, no key);
 * `monitor`, no call at all: the poller acting for a monitor (a match's charge, the draft it wrote
 * for a match), whichever interface created the monitor. Stored as `via` on scrapes, generations,
 * publications and monitors (migration 0017; a monitor's is where it was created), so the ledger can
 * say where spend came from; null on older rows for which nothing recorded it.
 */
export type Via = 'api' | 'mcp' | 'dashboard' | 'monitor';

/**
 * Who pays for a billable action and through what: a key's caller (keys' `Caller` is one), a person on the
 * dashboard (no key), or a monitor (no key, `via` where it was created). What generate and publish record of it.
 */
export interface Payer {
  accountId: string;
  keyId: string | null;
  via: Via | null;
}
