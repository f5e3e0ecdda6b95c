import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { reportSkipped } from './skips.ts';

/**
 * The dialects every database-backed test runs on. SQLite always; PostgreSQL when a server
 * answers at TESSERA_TEST_PG_URL (default: the local `test` database); without one the PostgreSQL
 * half of a file is reported as skipped. Under CI a missing PostgreSQL is a failure, not a skip.
 */
export const PG_URL = process.env.TESSERA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  dialect: 'sqlite' | 'postgres';
  /** Empty for SQLite (which lives in the test's data dir). */
  databaseUrl: string;
  drop(): Promise<void>;
}

let pgAvailable: Promise<boolean> | undefined;

async function probePostgres(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    if (process.env.CI) throw new Error(`PostgreSQL is required under CI but ${PG_URL} is unreachable: ${(error as Error).message}`);
    reportSkipped('the PostgreSQL tests', `PostgreSQL not reachable at ${PG_URL} (${(error as Error).message}); set TESSERA_TEST_PG_URL to a server to run it`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function dialects(): Promise<Array<'sqlite' | 'postgres'>> {
  pgAvailable ??= probePostgres();
  return (await pgAvailable) ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * A fresh, empty database: a new database on PostgreSQL, nothing (a new data dir) on SQLite.
 * A database of its own, not a schema in a shared one: Kysely's migrator looks at every schema of
 * its database, and a schema that another test file drops meanwhile fails it ("schema … does not
 * exist"), which happens once test files run side by side.
 */
export async function freshDatabase(dialect: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  if (dialect === 'sqlite') return { dialect, databaseUrl: '', drop: async () => {} };
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`create database ${name}`));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    dialect,
    databaseUrl: url.toString(),
    drop: () => withAdmin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
