import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { migrateToLatest } from './migrations.ts';
import type { Schema } from './schema.ts';

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
   * change counter (`PRAGMA data_version`: any commit by another connection); on PostgreSQL the
   * count of `NOTIFY tessera_api_keys` received on a connection kept listening for them.
   */
  keysVersion(): number | undefined;
  close(): Promise<void>;
}

/** The channel a key's revocation is announced on (PostgreSQL), in the revoking transaction. */
export const KEYS_CHANNEL = 'tessera_api_keys';

const INT8_OID = 20;

export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'sqliteSynchronous' | 'pgPoolMax' | 'pgStatementTimeoutMs' | 'pgSsl'>): Database {
  return config.databaseUrl ? openPostgres(config) : openSqlite(config);
}

const CACHED_STATEMENTS = 256;

/**
 * Runs a read of the connection's own at once, outside Kysely (`undefined` when it cannot now:
 * the caller then goes through Kysely). Only SQLite has one; see `directReaderOf`.
 */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

const directReaders = new WeakMap<object, DirectReader>();

/**
 * The direct reader of a Kysely instance opened here, if it has one. On SQLite a query through
 * Kysely is a chain of promises (connection provider, mutex, driver) around a synchronous call of
 * a few µs; the hot reads (a key, a file, a page of the list) skip it. They never run inside a
 * transaction that another caller holds open across awaits (its uncommitted rows would show):
 * while one is open the reader declines and the read waits its turn in Kysely as before.
 */
export function directReaderOf(db: object): DirectReader | undefined {
  return directReaders.get(db);
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

function openSqlite(config: Pick<Config, 'dataDir' | 'sqliteSynchronous'>): Database {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'tessera.sqlite');
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${config.sqliteSynchronous}`);
  sqlite.pragma('foreign_keys = ON');
  // The CLI and the server share the file: wait for the other's write lock instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  // Statements of their own, not the cache's that Kysely shares: the sources are the few shapes of
  // PreparedQueries, so this stays small.
  const direct = new Map<string, SqliteDatabase.Statement>();
  directReaders.set(db, (source, parameters) => {
    if (sqlite.inTransaction) return undefined;
    let statement = direct.get(source);
    if (!statement) {
      statement = sqlite.prepare(parametersAsExpressions(source));
      if (!statement.reader) throw new Error('a direct read must be a query that returns rows');
      direct.set(source, statement);
    }
    return statement.all(...parameters);
  });
  return {
    db,
    dialect: 'sqlite',
    location: file,
    async ping() {
      await sql`select 1`.execute(db);
    },
    exclusive: (_name, run) => run(),
    keysVersion: () => dataVersion.get() as number,
    close: () => db.destroy(),
  };
}

function openPostgres(config: Pick<Config, 'databaseUrl' | 'pgPoolMax' | 'pgStatementTimeoutMs' | 'pgSsl'>): Database {
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    max: config.pgPoolMax,
    statement_timeout: config.pgStatementTimeoutMs || undefined,
    ssl: config.pgSsl ? { rejectUnauthorized: true } : undefined,
    connectionTimeoutMillis: 5000,
    // BIGINT columns hold millisecond times and byte counts, all far below 2^53.
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser },
  });
  // A client that loses its server emits 'error' (besides failing its query). Unhandled, that
  // would end the process; handled, the pool drops the client and connects anew when asked.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
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
      await db.destroy();
    },
  };
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

export async function openMigratedDatabase(config: Parameters<typeof openDatabase>[0]): Promise<Database> {
  const database = openDatabase(config);
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
