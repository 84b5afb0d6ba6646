import { closeSync, existsSync, openSync } from 'node:fs';
import mmapModule from '@riaskov/mmap-io';
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';

/**
 * Kysely's SQLite driver, with two changes that matter under load: prepared statements are kept
 * by SQL text (the service runs the same few dozen over and over, so the hot path costs a lookup,
 * not a parse), and waiters for the single connection queue in order, instead of all waking on
 * every release and all but one going back to sleep (which made each query cost more the more
 * requests were in flight).
 */
class SqliteConnection implements DatabaseConnection {
  private readonly statements = new Map<string, SQLite.Statement>();
  constructor(private readonly sqlite: SQLite.Database) {}

  private prepare(text: string): SQLite.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.sqlite.prepare(text);
      if (this.statements.size < 500) this.statements.set(text, statement);
    }
    return statement;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.prepare(query.sql);
    const parameters = query.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used by subpilot');
  }
}

class SqliteDriver implements Driver {
  private readonly connection: SqliteConnection;
  private locked = false;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly marker: ChangeMarker,
  ) {
    this.connection = new SqliteConnection(sqlite);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.locked) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.locked = true;
    return this.connection;
  }

  async releaseConnection() {
    const next = this.waiting.shift();
    if (next) next();
    else this.locked = false;
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy() {
    this.marker.close();
    this.sqlite.close();
  }
}

/**
 * A reading that differs from the one before whenever the database may have changed in between, for
 * a cache that must be exact (keys.known.ts, unchanged-cache.ts). Every commit, by any connection in
 * any process and by this one, rewrites the WAL-index header: the first 96 bytes of the `-shm` file,
 * two copies of a 48-byte header with the commit's frame count and checksums
 * (https://www.sqlite.org/walformat.html, "The WAL-Index Header"). The header is read through a
 * shared read-only memory map of that file, as SQLite's own connections read it, so a reading costs
 * no system call: a `pread` of it cost 2 µs idle and about 5 under load on every request, and
 * `PRAGMA data_version`, which says the same, opens a read transaction (two locks). Copies that differ
 * (a commit halfway through writing them) count as a change. The map is read only while this
 * connection is open (see `close`): SQLite truncates the file only when it opens it with no other
 * connection holding it. Without a `-shm` file (not in WAL mode: a memory database) the pragma is
 * the fallback, with `total_changes()` because the pragma does not move for this connection's own
 * commits. Synchronous and outside the queue for the connection.
 */
class ChangeMarker {
  /** The mapped WAL-index header; null without a `-shm` file, undefined before the first reading. */
  private header: Buffer | null | undefined;
  private readonly last = Buffer.alloc(48);
  private seen = 0;
  private readonly changes: SQLite.Statement;
  private readonly version: SQLite.Statement;

  constructor(private readonly sqlite: SQLite.Database) {
    this.changes = sqlite.prepare('select total_changes()').pluck();
    this.version = sqlite.prepare('pragma data_version').pluck();
  }

  readonly read = (): string => {
    // The file exists once the connection has read in WAL mode, which opening it did (createDatabase).
    if (this.header === undefined) this.header = mapHeader(`${this.sqlite.name}-shm`);
    const { header, last } = this;
    if (header === null) return `${this.version.get()}:${this.changes.get()}`;
    if (header.compare(header, 48, 96, 0, 48) !== 0 || header.compare(last, 0, 48, 0, 48) !== 0) {
      this.seen += 1;
      header.copy(last, 0, 0, 48);
    }
    return String(this.seen);
  };

  /**
   * Before the connection closes: the map is let go, so readings go to the pragma, which fails on a
   * closed connection as every query does. Without the connection's hold on the file, a process
   * opening the database next may truncate it, and a read of the map would then crash this one.
   */
  close() {
    this.header = null;
  }
}

// The package is CommonJS whose types declare an ES default export: Node hands over module.exports itself.
const mmap = mmapModule as unknown as typeof mmapModule.default;

/** The first 96 bytes of a `-shm` file, mapped read-only and shared; null when there is no such file. */
function mapHeader(path: string): Buffer | null {
  if (!existsSync(path)) return null;
  const fd = openSync(path, 'r');
  try {
    // The map outlives the descriptor, and is released with the Buffer.
    return mmap.map(96, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0);
  } finally {
    closeSync(fd);
  }
}

export class SubpilotSqliteDialect extends SqliteDialect {
  readonly changeMarker: ChangeMarker;

  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
    this.changeMarker = new ChangeMarker(sqlite);
  }

  override createDriver(): Driver {
    return new SqliteDriver(this.sqlite, this.changeMarker);
  }
}
