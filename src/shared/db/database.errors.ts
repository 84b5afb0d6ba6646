/*
 * What a database error means, without loading a driver: the CLI's entry reads it to stop in one line,
 * and a one-shot command loads no more than it needs (test/cli/startup.test.ts).
 */

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
