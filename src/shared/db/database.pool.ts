import pg from 'pg';
import { describeDatabaseError } from './database.errors.ts';

/** Where the database reports trouble that no query is waiting to hear about (pino fits). */
export interface DatabaseLog {
  warn(details: object, message: string): void;
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
