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

  constructor(private readonly sqlite: SQLite.Database) {
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
    this.sqlite.close();
  }
}

export class SubpilotSqliteDialect extends SqliteDialect {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new SqliteDriver(this.sqlite);
  }
}
