import fs from 'node:fs/promises';
import type SqliteDatabase from 'better-sqlite3';
import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import { DelegatingDriver } from './delegating-driver.ts';

/** The data sync of an open file; `fs`'s, unless a test watches it. */
export type Datasync = (file: fs.FileHandle) => Promise<void>;

/**
 * Syncs SQLite's write-ahead log on libuv's thread pool, one sync for every write that committed
 * while the one before it ran.
 *
 * With `synchronous = FULL`, SQLite syncs the log inside COMMIT: a system call that holds the
 * event loop until the disk answers, and every other request with it (with syncs 3 ms slower, the
 * downloads served during uploads of files already stored took 5.3 ms at the median instead of
 * 0.2, and during uploads of new files 5.7 ms at p99 instead of 2.1: docs/benchmarks.md). With
 * `NORMAL` it writes the same frames and leaves the sync to the checkpoint, which is as safe
 * against corruption but not durable: the last commits may be lost on power loss. Syncing the log
 * file after the commit, before the writer hears it succeeded, gives FULL's durability back
 * without the wait on the loop: the log is appended in order, so a sync that begins after a
 * commit holds every frame up to and including it, and recovery replays them. The file is the one
 * SQLite keeps beside the database while a connection is open (it deletes it only when the last
 * connection closes, and this one stays open for the process's life).
 *
 * What differs from FULL: between its commit and its sync, a write is visible to other readers
 * of the database though not yet on disk. Whoever wrote it has not been answered yet, and a write
 * that builds on it (a later commit) is synced with it, since one sync holds both. SQLite's
 * checkpoints, which sync the log and the database file, run on a thread of their own
 * (checkpointer.ts); what SQLite still syncs on the loop is the log's header when a write starts
 * the log over.
 */
export class WalSync {
  private readonly walPath: string;
  private readonly datasync: Datasync;
  private file: Promise<fs.FileHandle> | undefined;
  /** The sync running now; a write that committed after it began waits for the next. */
  private running: Promise<void> | undefined;
  /** The sync that begins when the running one ends: shared by every write that commits meanwhile. */
  private next: Promise<void> | undefined;
  /** Inside commitThenSync: the commit's sync is handed over, not waited for. */
  private deferring = false;
  private owed: Promise<void> | undefined;

  constructor(walPath: string, datasync: Datasync = (file) => file.datasync()) {
    this.walPath = walPath;
    this.datasync = datasync;
  }

  /**
   * Runs `commit` (a transaction's COMMIT through Kysely) without waiting for its sync, and
   * answers the sync's promise (`durable`): the caller must await it before it tells anyone the
   * write is stored. The group commit uses it so that the connection is free for other callers
   * while the sync runs.
   */
  async commitThenSync(commit: () => Promise<unknown>): Promise<{ durable: Promise<void> }> {
    this.deferring = true;
    this.owed = undefined;
    try {
      await commit();
    } finally {
      this.deferring = false;
    }
    // In an object: a promise answered by an async function would be waited for.
    const durable = this.owed ?? Promise.resolve();
    this.owed = undefined;
    return { durable };
  }

  /**
   * A write committed: the sync it waits for, or undefined inside `commitThenSync` (which hands
   * the sync to its caller instead).
   */
  committed(): Promise<void> | undefined {
    const sync = this.afterCommit();
    if (!this.deferring) return sync;
    sync.catch(() => {}); // the caller of commitThenSync awaits it
    this.owed = sync;
    return undefined;
  }

  /** Resolves once everything written to the log before this call is on disk. */
  afterCommit(): Promise<void> {
    if (this.next) return this.next;
    if (!this.running) return this.begin();
    const running = this.running;
    this.next = running.then(
      () => this.begin(),
      () => this.begin(),
    );
    return this.next;
  }

  /** Waits for the syncs begun or promised, then lets the file go. */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.next]);
    const file = this.file;
    this.file = undefined;
    if (file) await (await file.catch(() => undefined))?.close();
  }

  private begin(): Promise<void> {
    this.next = undefined;
    this.file ??= fs.open(this.walPath, 'r');
    const file = this.file;
    const sync = (async () => {
      try {
        await this.datasync(await file);
      } catch (error) {
        // The next write opens the file again rather than trust a handle that failed.
        if (this.file === file) this.file = undefined;
        void file.then((handle) => handle.close()).catch(() => {});
        throw error;
      }
    })();
    this.running = sync;
    const done = () => {
      if (this.running === sync) this.running = undefined;
    };
    sync.then(done, done);
    return sync;
  }
}

/**
 * Kysely's SQLite dialect whose writes resolve only once the log holding them is synced: a
 * statement run outside a transaction that wrote (or may have: anything not a plain read), and
 * every COMMIT. Reads, and the statements inside a transaction, resolve as before. The connection
 * is held until the sync ends, so the next transaction begins after it (reads that bypass Kysely,
 * the direct reader, go on meanwhile), except for a commit run through `WalSync.commitThenSync`.
 */
export class WalSyncedSqliteDialect extends SqliteDialect {
  private readonly sqlite: SqliteDatabase.Database;
  private readonly wal: WalSync;

  constructor(database: SqliteDatabase.Database, sqlite: SqliteDatabase.Database, wal: WalSync) {
    super({ database });
    this.sqlite = sqlite;
    this.wal = wal;
  }

  override createDriver(): Driver {
    return new WalSyncedDriver(super.createDriver(), this.sqlite, this.wal);
  }
}

class WalSyncedDriver extends DelegatingDriver {
  private readonly sqlite: SqliteDatabase.Database;
  private readonly wal: WalSync;
  private readonly changes: SqliteDatabase.Statement;
  private readonly wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(inner: Driver, sqlite: SqliteDatabase.Database, wal: WalSync) {
    super(inner);
    this.sqlite = sqlite;
    this.wal = wal;
    this.changes = sqlite.prepare('select total_changes()').pluck();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let synced = this.wrapped.get(connection);
    if (!synced) {
      synced = this.synced(connection);
      this.wrapped.set(connection, synced);
    }
    return synced;
  }

  /** The connection, its queries followed by a sync of the log when they committed a write. */
  private synced(connection: DatabaseConnection): DatabaseConnection {
    const { sqlite, wal, changes } = this;
    return {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        const wasInTransaction = sqlite.inTransaction;
        // A SELECT built by Kysely writes nothing: neither counted nor synced.
        const select = query.query.kind === 'SelectQueryNode';
        const before = wasInTransaction || select ? 0 : (changes.get() as number);
        const result = await connection.executeQuery<R>(query);
        if (sqlite.inTransaction) return result;
        // Outside a transaction: a COMMIT (it was in one), a statement that is no plain read
        // (numAffectedRows is set for those; DDL changes no row but must be durable too), or a
        // read that changed rows (an INSERT … RETURNING is a reader).
        const committed = wasInTransaction || (!select && (result.numAffectedRows !== undefined || (changes.get() as number) !== before));
        if (committed) await wal.committed();
        return result;
      },
      streamQuery: <R>(query: CompiledQuery, chunkSize: number) => connection.streamQuery<R>(query, chunkSize),
    };
  }

  override async destroy(): Promise<void> {
    await this.wal.close();
    await this.inner.destroy();
  }
}
