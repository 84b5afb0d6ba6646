import pg from 'pg';

/** Where the database reports trouble that no query is waiting to hear about (pino fits). */
export interface DatabaseLog {
  warn(details: object, message: string): void;
}

/** A lost connection's code and message only: the error object also carries the client and its password. */
export const describeDatabaseError = (error: unknown) => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return { code, message: typeof message === 'string' ? message : String(error) };
};

/** Errors that mean "the database cannot be reached now" (refused, dropped, shutting down), not a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (/^(08|57P0[1-3])/.test(code) || /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|EPIPE)$/.test(code))) {
    return true;
  }
  // pg's own words, without a code: a connection dropped under a query, or a dead client asked again
  // (Kysely's rollback after a terminated statement reports this one instead of the first).
  return error instanceof Error && /^Connection terminated|^Client has encountered a connection error and is not queryable/.test(error.message);
}

/**
 * One line for an operator when the database cannot be used at all (the CLI's and `serve`'s start), null
 * for any other error. pg's own message names the host and port, never the password.
 */
export function databaseFailure(error: unknown): string | null {
  const { code, message } = describeDatabaseError(error);
  if (isDatabaseUnavailable(error) || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `the database cannot be reached (${message}): is PostgreSQL running there, and is DATABASE_URL right?`;
  }
  // 28xxx: the server refused the user or password; 3D000: no such database on it.
  if (typeof code === 'string' && (code.startsWith('28') || code === '3D000')) return `the database refused the connection (${message}): check DATABASE_URL`;
  return null;
}

/**
 * A database that does not answer at all fails the connection attempt (and /healthz) after 5 s
 * instead of hanging it. Set on the client, not the pool: the pool's option would also cut off
 * queries that merely wait their turn for a connection under load.
 */
class TimedClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: 5000 });
  }
}

/**
 * The PostgreSQL pool. A connection the server ends (pg_terminate_backend, a restart, a failover, a
 * pooler's idle timeout) emits 'error' on its client; unheard, that kills the process. Each client
 * gets a listener that logs it; the pool drops the dead client and connects anew on the next query.
 */
export function createPool(url: string, log: DatabaseLog): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 10, fallback_application_name: 'subpilot', Client: TimedClient });
  pool.on('connect', (client) =>
    client.on('error', (error) => log.warn(describeDatabaseError(error), 'a PostgreSQL connection was lost; the next query reconnects')),
  );
  // Idle clients report the same error here as well; it is logged once, by the client's listener above.
  pool.on('error', () => undefined);
  return pool;
}
