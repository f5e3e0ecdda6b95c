import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type QueryResult } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { migrateToLatest } from './migrations.ts';
import type { Schema } from './schema.ts';
import { WalSync, WalSyncedSqliteDialect, type Datasync } from './wal-sync.ts';
import { SQLITE_AUTOCHECKPOINT_PAGES, WalCheckpointer } from './checkpointer.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<Schema>;
  readonly dialect: DialectName;
  /** Where the data lives, for logs: a file path or a redacted URL. */
  readonly location: string;
  ping(): Promise<void>;
  /**
   * Runs `run` unless another process holds the lock `name` (then answers undefined without
   * running it). On PostgreSQL a session advisory lock, scoped to this schema, so one of many
   * replicas does the work; SQLite serves one process, which needs no lock.
   */
  exclusive<T>(name: string, run: () => Promise<T>): Promise<T | undefined>;
  /**
   * A number that changes whenever a key may have been revoked by another process (undefined:
   * this process cannot tell now, so it must not trust what it cached). On SQLite the file's
   * change counter (`PRAGMA data_version`: any commit by another connection, seen from the next
   * turn of the event loop, as it is read once per turn); on PostgreSQL the
   * count of `NOTIFY tessera_api_keys` received on a connection kept listening for them.
   */
  keysVersion(): number | undefined;
  /** SQLite's log syncer, when its commits are synced off the event loop (wal-sync.ts). */
  readonly walSync?: WalSync;
  /** SQLite's checkpoint thread, when the log is copied into the database off the event loop (checkpointer.ts). */
  readonly checkpointer?: WalCheckpointer;
  close(): Promise<void>;
}

/** The channel a key's revocation is announced on (PostgreSQL), in the revoking transaction. */
export const KEYS_CHANNEL = 'tessera_api_keys';

const INT8_OID = 20;
/** PostgreSQL's "cached plan must not change result type". */
const STALE_PLAN = '0A000';

export interface DatabaseOptions {
  /** How SQLite's log is synced after a commit (tests watch it); the file's own data sync by default. */
  walDatasync?: Datasync;
  /** Told when SQLite's checkpoint thread fails (its connection has then taken its own checkpoint back); a process warning by default. */
  onCheckpointFailure?: (error: Error) => void;
}

export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'sqliteSynchronous' | 'pgPoolMax' | 'pgStatementTimeoutMs' | 'pgSsl'> & Partial<Pick<Config, 'pgPreparedStatements' | 'sqliteCheckpointIntervalMs' | 'sqliteCheckpointPages'>>, options: DatabaseOptions = {}): Database {
  return config.databaseUrl ? openPostgres(config) : openSqlite(config, options);
}

const CACHED_STATEMENTS = 256;

/**
 * Runs a hot read outside Kysely (`undefined` when it cannot now: the caller then goes through
 * Kysely). SQLite answers at once on its connection; PostgreSQL runs it as a named prepared
 * statement. See `directReaderOf`.
 */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[] | Promise<unknown[] | undefined> | undefined;

const directReaders = new WeakMap<object, DirectReader>();

/**
 * Runs a statement inside the transaction that holds SQLite's one connection, straight on it:
 * answered at once, or `undefined` when no transaction is open (and on PostgreSQL, which has
 * none). See `directRunnerOf`.
 */
export type DirectRunner = (sql: string, parameters: readonly unknown[]) => QueryResult<unknown> | undefined;

const directRunners = new WeakMap<object, DirectRunner>();

/**
 * The direct reader of a Kysely instance opened here, if it has one. The hot reads (a key, a file,
 * a page of the list) use it.
 *
 * On SQLite a query through Kysely is a chain of promises (connection provider, mutex, driver)
 * around a synchronous call of a few µs. The reads skip it, but never inside a transaction that
 * another caller holds open across awaits (its uncommitted rows would show): while one is open the
 * reader declines and the read waits its turn in Kysely as before.
 *
 * On PostgreSQL Kysely sends every query unnamed, so the server parses and plans it at each run;
 * for a page of the list that was most of the time the database spent (issue 22). The reads go as
 * named prepared statements instead (node-postgres prepares one on each pooled connection the first
 * time that connection runs it), on a pool of their own that plans them once (`postgresPool`). Like
 * any read through Kysely outside a transaction, they see what is committed.
 * `TESSERA_PG_PREPARED_STATEMENTS=false` turns this off, for a pooler in transaction mode that
 * cannot keep a connection's prepared statements.
 */
export function directReaderOf(db: object): DirectReader | undefined {
  return directReaders.get(db);
}

/**
 * The direct runner of a Kysely instance opened on SQLite, for the statements of a transaction
 * (an upload's commit, the group commit's savepoints). SQLite has one connection, and while a
 * transaction is open it is the one that holds it (Kysely makes everyone else wait for it), so a
 * statement the transaction's own code runs straight on the connection is the statement Kysely
 * would run, without its chain of promises (a few µs a statement; an upload runs seven). Only
 * for code that runs inside the transaction: outside one, it declines.
 */
export function directRunnerOf(db: object): DirectRunner | undefined {
  return directRunners.get(db);
}

/**
 * The SQL with each bare parameter `?` written `+?` (outside quoted names; SQL with a string
 * literal is left as it is). The SQLite that better-sqlite3 bundles prepares a join whose WHERE
 * compares a column with a bare parameter again at every run (perf shows `sqlite3Reprepare` under
 * each `sqlite3_step`; the same query on one table is not): a file's look-up took 29 µs of CPU
 * instead of 9, a page of the list 133 instead of 105 (docs/benchmarks.md, issue 22). Under unary
 * plus a parameter is an expression, and the statement stays prepared. The plans are the same index
 * walks and the comparisons the same (a bare parameter has no affinity either): test/db/prepared.test.ts.
 */
export function parametersAsExpressions(source: string): string {
  if (source.includes("'")) return source;
  return source
    .split('"')
    .map((part, i) => (i % 2 === 0 ? part.replaceAll('?', '+?') : part))
    .join('"');
}

/**
 * Kysely prepares every query anew; preparing costs as much as running a short query. The app's
 * statements are few, so they are kept (least recently used dropped past the cap). better-sqlite3
 * runs one statement at a time, so sharing one is safe.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property !== 'prepare') {
        const value: unknown = Reflect.get(target, property, receiver);
        // Native methods need the real database as `this`, not the proxy.
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (source: string) => {
        let statement = cache.get(source);
        if (statement) cache.delete(source);
        else statement = target.prepare(source);
        cache.set(source, statement);
        if (cache.size > CACHED_STATEMENTS) cache.delete(cache.keys().next().value!);
        return statement;
      };
    },
  });
}

/**
 * Runs a statement of a database's opening again while SQLite answers SQLITE_BUSY, for up to
 * SQLITE_OPEN_BUSY_MS. Two processes opening one new file at once (replicas starting together):
 * while one turns it to WAL and builds its shared index, the other's `journal_mode` is refused
 * busy at once, without the busy handler's wait (seen as a replica failing to start, 1 run in
 * many under load). Blocking is fine here: nothing else runs while the database opens.
 */
function withoutBusyAtOpen<T>(statement: () => T): T {
  const until = Date.now() + SQLITE_OPEN_BUSY_MS;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return statement();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= until) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
    }
  }
}
/** How long a database's opening waits out another process's (withoutBusyAtOpen): the busy timeout's. */
const SQLITE_OPEN_BUSY_MS = 5000;

function openSqlite(config: Pick<Config, 'dataDir' | 'sqliteSynchronous'> & Partial<Pick<Config, 'sqliteCheckpointIntervalMs' | 'sqliteCheckpointPages'>>, options: DatabaseOptions): Database {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'tessera.sqlite');
  const sqlite = new SqliteDatabase(file);
  const journal = withoutBusyAtOpen(() => sqlite.pragma('journal_mode = WAL', { simple: true }));
  // FULL durability with the log's sync off the event loop (wal-sync.ts): SQLite writes the log
  // without syncing it, and every write resolves after a sync on the thread pool. Only in WAL mode
  // (where a file system cannot share memory, SQLite keeps another journal and syncs it as asked).
  const wal = config.sqliteSynchronous === 'FULL' && journal === 'wal' ? new WalSync(`${file}-wal`, options.walDatasync) : undefined;
  sqlite.pragma(`synchronous = ${wal ? 'NORMAL' : config.sqliteSynchronous}`);
  sqlite.pragma('foreign_keys = ON');
  // The CLI and the server share the file: wait for the other's write lock instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  // The log is copied into the database by a thread of its own, not inside a COMMIT on the event
  // loop (checkpointer.ts). Left to SQLite where no interval is set (a short-lived CLI command).
  // The connection stays at NORMAL: at OFF, SQLite would leave out the sync of the log's header
  // when a write starts the log over, which keeps a power loss from leaving some of the frames that
  // overwrite the old log on disk out of order. The thread makes that write itself (checkpoint-thread.ts).
  const checkpointer = journal === 'wal' && (config.sqliteCheckpointIntervalMs ?? 0) > 0 ? startCheckpointer(sqlite, file, { intervalMs: config.sqliteCheckpointIntervalMs!, pages: config.sqliteCheckpointPages ?? SQLITE_AUTOCHECKPOINT_PAGES }, options) : undefined;
  const statements = withStatementCache(sqlite);
  const dialect = wal ? new WalSyncedSqliteDialect(statements, sqlite, wal) : new SqliteDialect({ database: statements });
  const db = new Kysely<Schema>({ dialect: checkpointer ? checkpointer.gated(dialect) : dialect });
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  // Read once per turn of the event loop, shared by the requests of that turn: reading it takes a
  // lock on the file (system calls: 4–18 µs here, 9 % of a small download's time on the loop).
  // A commit by another process is seen from the next turn on.
  let versionThisTurn: number | undefined;
  const forgetVersion = () => {
    versionThisTurn = undefined;
  };
  // Statements of their own, not the cache's that Kysely shares: the sources are the few shapes of
  // PreparedQueries and the group commit's savepoints, so these stay small.
  const preparedOnce = (cache: Map<string, SqliteDatabase.Statement>, source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = sqlite.prepare(source);
      cache.set(source, statement);
    }
    return statement;
  };
  // Keyed by the source as the caller gives it: rewriting it (parametersAsExpressions) on every read
  // took 3% of a small download's CPU.
  const reads = new Map<string, SqliteDatabase.Statement>();
  directReaders.set(db, (source, parameters) => {
    if (sqlite.inTransaction) return undefined;
    let statement = reads.get(source);
    if (!statement) reads.set(source, (statement = sqlite.prepare(parametersAsExpressions(source))));
    if (!statement.reader) throw new Error('a direct read must be a query that returns rows');
    return statement.all(...parameters);
  });
  const inTransaction = new Map<string, SqliteDatabase.Statement>();
  directRunners.set(db, (source, parameters) => {
    if (!sqlite.inTransaction) return undefined;
    const statement = preparedOnce(inTransaction, source);
    if (statement.reader) return { rows: statement.all(...parameters) };
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  });
  return {
    db,
    dialect: 'sqlite',
    location: file,
    walSync: wal,
    checkpointer,
    async ping() {
      await sql`select 1`.execute(db);
    },
    exclusive: (_name, run) => run(),
    keysVersion: () => {
      if (versionThisTurn === undefined) {
        versionThisTurn = dataVersion.get() as number;
        setImmediate(forgetVersion);
      }
      return versionThisTurn;
    },
    async close() {
      await checkpointer?.stop();
      try {
        await db.destroy();
      } finally {
        // After the connection: closing a descriptor of the file drops the process's locks on it.
        checkpointer?.closeIndex();
      }
    },
  };
}

/**
 * The checkpoint thread, with SQLite's own checkpoint off; undefined (SQLite's own kept) if the
 * thread cannot start. If it fails later, SQLite's own comes back, once no transaction is open
 * (the pragma is refused inside one).
 */
function startCheckpointer(sqlite: SqliteDatabase.Database, file: string, settings: { intervalMs: number; pages: number }, options: DatabaseOptions): WalCheckpointer | undefined {
  const warn = options.onCheckpointFailure ?? ((error: Error) => process.emitWarning(`SQLite's checkpoint thread failed; checkpoints are back on the event loop: ${error.message}`));
  // A read, so that the log's shared index (which the thread reads) exists.
  sqlite.pragma('schema_version');
  const restore = () => {
    if (!sqlite.open) return;
    if (sqlite.inTransaction) {
      setTimeout(restore, 1);
      return;
    }
    // The log must not grow without a bound: SQLite's own checkpoint comes back.
    sqlite.pragma(`wal_autocheckpoint = ${settings.pages}`);
  };
  let checkpointer: WalCheckpointer;
  try {
    checkpointer = new WalCheckpointer(file, settings, (error) => {
      restore();
      warn(error);
    });
  } catch (error) {
    warn(error as Error);
    return undefined;
  }
  sqlite.pragma('wal_autocheckpoint = 0');
  return checkpointer;
}

function openPostgres(config: Pick<Config, 'databaseUrl' | 'pgPoolMax' | 'pgStatementTimeoutMs' | 'pgSsl'> & Partial<Pick<Config, 'pgPreparedStatements'>>): Database {
  const pool = postgresPool(config);
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  // The hot reads' pool (below): connections opened when first needed, like the main pool's.
  const readPool = config.pgPreparedStatements !== false ? postgresPool(config, 'plan_cache_mode=force_generic_plan') : undefined;
  if (readPool) {
    // A statement's name is per connection and must always mean the same text: named by its digest.
    const names = new Map<string, string>();
    directReaders.set(db, async (source, parameters) => {
      let name = names.get(source);
      if (!name) {
        name = `tessera_${createHash('sha256').update(source).digest('hex').slice(0, 24)}`;
        names.set(source, name);
      }
      const client = await readPool.connect();
      let stale: Error | undefined;
      try {
        return (await client.query({ name, text: source, values: parameters as unknown[] })).rows;
      } catch (error) {
        // A table changed under a prepared `select *` (another replica's migration, in a rolling
        // upgrade): PostgreSQL will not run that statement again on this connection. The connection
        // is dropped (the next one prepares anew) and this read goes through Kysely.
        if ((error as { code?: string }).code !== STALE_PLAN) throw error;
        stale = error as Error;
        return undefined;
      } finally {
        client.release(stale);
      }
    });
  }
  const keys = listenForKeys(config);
  return {
    db,
    dialect: 'postgres',
    location: redactUrl(config.databaseUrl),
    async ping() {
      await sql`select 1`.execute(db);
    },
    // The lock belongs to one connection, held for the whole run; the work itself uses others.
    exclusive: (name, run) =>
      db.connection().execute(async (connection) => {
        const lock = sql<{ taken: boolean }>`select pg_try_advisory_lock(hashtext(current_schema() || ':' || ${name})) as taken`;
        if (!(await lock.execute(connection)).rows[0]?.taken) return undefined;
        try {
          return await run();
        } finally {
          await sql`select pg_advisory_unlock(hashtext(current_schema() || ':' || ${name}))`.execute(connection);
        }
      }),
    keysVersion: () => keys.version(),
    close: async () => {
      await keys.close();
      await readPool?.end();
      await db.destroy();
    },
  };
}

/**
 * A pool of connections to PostgreSQL; `setting` (a `name=value` of the server's) is set on each
 * of its sessions.
 *
 * The hot reads' pool sets `plan_cache_mode=force_generic_plan`: a page of the list has its LIMIT
 * as a parameter, and PostgreSQL estimates a generic plan's LIMIT at a tenth of the rows, so it
 * would never trust its generic plan and would plan the page again at every run (0.38–0.43 ms a
 * page where the same statement with a literal LIMIT took 0.23–0.26 ms). Its generic plans are the
 * index walks the custom plans are (test/db/prepared.test.ts checks them). The setting stays off
 * the main pool, whose unnamed one-off statements are better planned for their values.
 */
function postgresPool(config: Pick<Config, 'databaseUrl' | 'pgPoolMax' | 'pgStatementTimeoutMs' | 'pgSsl'>, setting?: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    max: config.pgPoolMax,
    statement_timeout: config.pgStatementTimeoutMs || undefined,
    ssl: config.pgSsl ? { rejectUnauthorized: true } : undefined,
    connectionTimeoutMillis: 5000,
    options: setting ? `-c ${setting}` : undefined,
    // BIGINT columns hold millisecond times and byte counts, all far below 2^53.
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser },
  });
  // A client that loses its server emits 'error' (besides failing its query). Unhandled, that
  // would end the process; handled, the pool drops the client and connects anew when asked.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** How long a lost listening connection waits before it connects again. */
const LISTEN_RETRY_MS = 1000;

/**
 * One connection kept listening on KEYS_CHANNEL: every notification moves the version on. While
 * it is not listening (not yet, or lost) the version is undefined, and a reconnection moves it on
 * too, since notifications may have been missed meanwhile.
 */
function listenForKeys(config: Pick<Config, 'databaseUrl' | 'pgSsl'>): { version(): number | undefined; close(): Promise<void> } {
  let version = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = () => {
    const next = new pg.Client({ connectionString: config.databaseUrl, ssl: config.pgSsl ? { rejectUnauthorized: true } : undefined, connectionTimeoutMillis: 5000 });
    client = next;
    const lost = () => {
      if (client !== next) return;
      listening = false;
      client = undefined;
      next.removeAllListeners('notification');
      void next.end().catch(() => {});
      if (!closed) {
        retry = setTimeout(() => {
          retry = undefined;
          connect();
        }, LISTEN_RETRY_MS).unref();
      }
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', () => {
      version++;
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${KEYS_CHANNEL}`))
      .then(() => {
        if (client !== next) return;
        version++;
        listening = true;
      }, lost);
  };
  return {
    // Only a process that authenticates keys listens (the server, not the CLI): from its first ask.
    version: () => {
      if (!listening && !client && !retry && !closed) connect();
      return listening ? version : undefined;
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      listening = false;
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}

export async function openMigratedDatabase(config: Parameters<typeof openDatabase>[0], options: DatabaseOptions = {}): Promise<Database> {
  const database = openDatabase(config, options);
  try {
    await migrateToLatest(database.db as Kysely<unknown>, database.dialect);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

/** True when the error is a unique-constraint violation, on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | undefined;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when the error is a foreign-key violation, on either dialect. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string } | undefined;
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
