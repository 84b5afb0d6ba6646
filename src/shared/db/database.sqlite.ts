import { closeSync, existsSync, openSync, readSync } from 'node:fs';
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
 * a cache that must be exact (keys.known.ts): another connection committed, or this connection wrote
 * (`total_changes()`: SQLite counts its own commits nowhere else). Other connections' commits show in
 * the WAL-index header, the first 96 bytes of the `-shm` file: two copies of a 48-byte header that
 * every commit rewrites, its change counter included (https://www.sqlite.org/walformat.html, "The
 * WAL-Index Header"). Reading them costs one system call; `PRAGMA data_version`, which says the same,
 * opens a read transaction (two locks) and cost three times as much. Copies that differ (a commit
 * halfway through writing them) count as a change. Without a `-shm` file (not in WAL mode: a memory
 * database) the pragma is the fallback. Synchronous and outside the queue for the connection: it
 * reads counters, so it moves inside a transaction of this connection too.
 */
class ChangeMarker {
  private shm: number | null | undefined;
  private readonly header = Buffer.alloc(96);
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
    if (this.shm === undefined) this.shm = existsSync(`${this.sqlite.name}-shm`) ? openSync(`${this.sqlite.name}-shm`, 'r') : null;
    if (this.shm === null) return `${this.version.get()}:${this.changes.get()}`;
    const { header, last } = this;
    readSync(this.shm, header, 0, 96, 0);
    if (header.compare(header, 48, 96, 0, 48) !== 0 || header.compare(last, 0, 48, 0, 48) !== 0) {
      this.seen += 1;
      header.copy(last, 0, 0, 48);
    }
    return `${this.seen}:${this.changes.get()}`;
  };

  close() {
    if (typeof this.shm === 'number') closeSync(this.shm);
    this.shm = null;
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
