import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  DeleteQueryNode,
  InsertQueryNode,
  SelectQueryNode,
  SqliteDialect,
  TableNode,
  UpdateQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';

/**
 * Group commit for the SQLite journal (benchmark, docs/performance.md). With `synchronous = FULL`, SQLite calls
 * fsync inside each COMMIT, and better-sqlite3 runs on the event loop: every request waited for the
 * disk one at a time. Here SQLite runs with `synchronous = NORMAL` (WAL: always consistent, syncs at
 * checkpoints) and a write's promise resolves only after an fdatasync of the WAL file that started
 * after its COMMIT returned: the promise of FULL (a lead acknowledged is on disk), but the sync runs
 * on libuv's thread pool and covers every commit made while the previous one was running.
 */
export class WalSync {
  private handle: Promise<FileHandle> | undefined;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    private readonly walFile: string,
    /** The sync itself; tests observe it, production uses fdatasync. */
    private readonly sync: (handle: FileHandle) => Promise<void> = (handle) => handle.datasync(),
  ) {}

  /** Resolves once everything written to the WAL before this call is on disk. */
  flush(): Promise<void> {
    if (this.queued) return this.queued;
    if (this.running) {
      // The sync in progress may have started before this caller's write: wait for the next one.
      const next = this.running
        .catch(() => undefined)
        .then(() => {
          this.queued = undefined;
          return this.start();
        });
      this.queued = next;
      return next;
    }
    return this.start();
  }

  private start(): Promise<void> {
    const run = this.fileHandle().then((handle) => this.sync(handle));
    this.running = run;
    run
      .finally(() => {
        if (this.running === run) this.running = undefined;
      })
      .catch(() => undefined);
    return run;
  }

  /** Opened at the first sync (SQLite creates the WAL with the first write); its folder is synced once. */
  private fileHandle(): Promise<FileHandle> {
    this.handle ??= (async () => {
      const folder = await open(dirname(this.walFile), 'r');
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
      return open(this.walFile, 'r');
    })();
    this.handle.catch(() => (this.handle = undefined));
    return this.handle;
  }

  async close(): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.queued?.catch(() => undefined);
    await (await this.handle?.catch(() => undefined))?.close();
  }
}

/**
 * An insert, update or delete that changed no row wrote nothing to wait for: the dispatcher's claim,
 * one UPDATE run at every poll, finds nothing due while the site is idle (sql-deliveries.ts).
 * Anything else (DDL, BEGIN, COMMIT) counts as a write.
 */
function changedNothing(query: CompiledQuery, result: QueryResult<unknown>): boolean {
  const node = query.query;
  const dml = InsertQueryNode.is(node) || UpdateQueryNode.is(node) || DeleteQueryNode.is(node);
  return dml && result.rows.length === 0 && (result.numAffectedRows ?? 0n) === 0n;
}

/**
 * Tables whose rows are not worth a wait for the disk: a provider's rate budget (docs/delivery.md,
 * « Provider rate budgets ») is reserved before every call, and a reservation lost to a power cut
 * is one call not counted for a second, by a process that is gone too. Its writes stay in the WAL
 * and reach the disk with the next sync.
 */
const UNSYNCED_TABLES = new Set(['provider_budgets']);

function writesOnlyUnsynced(query: CompiledQuery): boolean {
  const node = query.query;
  const table = UpdateQueryNode.is(node) ? node.table : InsertQueryNode.is(node) ? node.into : null;
  return (
    table !== null &&
    table !== undefined &&
    TableNode.is(table) &&
    UNSYNCED_TABLES.has(table.table.identifier.name)
  );
}

/** A connection that remembers whether it wrote since it was acquired. */
class TrackedConnection implements DatabaseConnection {
  wrote = false;
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (SelectQueryNode.is(query.query)) return this.inner.executeQuery<R>(query);
    try {
      const result = await this.inner.executeQuery<R>(query);
      if (!changedNothing(query, result) && !writesOnlyUnsynced(query)) this.wrote = true;
      return result;
    } catch (error) {
      // A failed statement inside a transaction may follow others that wrote.
      this.wrote = true;
      throw error;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) this.wrote = true;
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * Kysely releases the connection after a statement or a whole transaction, and resolves the
 * caller's promise only after that: the sync happens there, once the connection is free for others.
 */
class GroupCommitDriver implements Driver {
  private readonly connections = new WeakMap<DatabaseConnection, TrackedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly wal: WalSync,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let tracked = this.connections.get(connection);
    if (!tracked) this.connections.set(connection, (tracked = new TrackedConnection(connection)));
    tracked.wrote = false;
    return tracked;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) =>
    this.inner.savepoint!(connection, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) =>
    this.inner.rollbackToSavepoint!(connection, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) =>
    this.inner.releaseSavepoint!(connection, name, compile);

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const tracked = connection as TrackedConnection;
    await this.inner.releaseConnection(tracked.inner);
    if (tracked.wrote) await this.wal.flush();
  }

  async destroy(): Promise<void> {
    await this.inner.destroy();
    await this.wal.close();
  }
}

/** Kysely's SQLite dialect whose writes resolve only once on disk, synced in groups. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly wal: WalSync,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new GroupCommitDriver(super.createDriver(), this.wal);
  }
}
