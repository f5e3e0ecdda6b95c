import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { WalCheckpointer } from '../../src/db/checkpointer.ts';
import { openMigratedDatabase, type Database } from '../../src/db/database.ts';

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await condition())) {
    if (performance.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function withDatabase(settings: Record<string, string>, run: (database: Database, dataDir: string) => Promise<void>, onCheckpointFailure?: (error: Error) => void) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-checkpointer-'));
  const database = await openMigratedDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir, ...settings }), { onCheckpointFailure });
  try {
    await run(database, dataDir);
  } finally {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** 256 KiB of log: one transaction of 64 rows of 4 KiB each. */
async function writeBurst(database: Database, round: number) {
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 64; i++) await sql`insert into scratch (id, body) values (${round * 64 + i}, ${Buffer.alloc(4096, round)})`.execute(trx);
  });
}

/** The descriptors this process has open on `file` (Linux: /proc/self/fd); undefined where that cannot be read. */
async function descriptorsOf(file: string): Promise<number | undefined> {
  let entries: string[];
  try {
    entries = await fs.readdir('/proc/self/fd');
  } catch {
    return undefined;
  }
  const targets = await Promise.all(entries.map((fd) => fs.readlink(path.join('/proc/self/fd', fd)).catch(() => '')));
  return targets.filter((target) => target === file).length;
}
const autocheckpoint = async (database: Database) => (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db)).rows[0]!.wal_autocheckpoint;

test('SQLite: under steady writes the log is copied by the checkpoint thread, the writers held for it, and it starts over instead of growing', async () => {
  await withDatabase({ TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS: '2', TESSERA_SQLITE_CHECKPOINT_PAGES: '100' }, async (database, dataDir) => {
    assert.ok(database.checkpointer, 'a checkpoint thread by default');
    await database.checkpointer.ready;
    // The server's own connection never checkpoints: a COMMIT never copies the log on the event loop.
    assert.equal(await autocheckpoint(database), 0);
    await sql`create table scratch (id integer primary key, body blob)`.execute(database.db);
    const wal = path.join(dataDir, 'tessera.sqlite-wal');
    // Moves only when another connection commits: here, the thread starting the log over.
    const dataVersion = async () => (await sql<{ data_version: number }>`pragma data_version`.execute(database.db)).rows[0]!.data_version;
    const version = await dataVersion();
    let largest = 0;
    // 40 bursts of 256 KiB, one after another with no pause: 10 MiB of log if nothing copied it,
    // and a checkpoint beside the writer never catches up.
    for (let round = 0; round < 40; round++) {
      await writeBurst(database, round);
      largest = Math.max(largest, (await fs.stat(wal)).size);
    }
    const { quiets } = database.checkpointer.counts();
    assert.ok(quiets >= 5, `the writers were held for ${quiets} copies`);
    // The thread's own write starts the log over (and syncs its header), not the server's next one.
    assert.notEqual(await dataVersion(), version, 'the thread wrote');
    // Idle, with the log copied to its end, the writers are not held again: it stays as long as it
    // is until the next write starts it over.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const idle = database.checkpointer.counts().quiets;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(database.checkpointer.counts().quiets, idle, 'no hold while nothing is written');
    // Copied at 100 pages (400 KiB), the log stays within a few bursts past that.
    assert.ok(largest < 2 * 1024 * 1024, `the log grew to ${largest} bytes`);
    const { count } = (await sql<{ count: number }>`select count(*) as count from scratch`.execute(database.db)).rows[0]!;
    assert.equal(count, 40 * 64);
  });
});

test('SQLite: if the checkpoint thread fails, even inside a transaction, the connection takes its own checkpoint back once the transaction ends, and says so; no descriptor of the file closes until the database does', async () => {
  const failures: Error[] = [];
  await withDatabase({ TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS: '10', TESSERA_SQLITE_CHECKPOINT_PAGES: '700' }, async (database, dataDir) => {
    await database.checkpointer!.ready;
    assert.equal(await autocheckpoint(database), 0);
    const index = path.join(dataDir, 'tessera.sqlite-shm');
    const open = await descriptorsOf(index);
    await sql`create table scratch (id integer primary key, body blob)`.execute(database.db);
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into scratch (id, body) values (1, ${Buffer.alloc(10)})`.execute(trx);
      // The thread dies, as a crash in it would end it, while the transaction awaits.
      await database.checkpointer!['worker'].terminate();
      await until(() => failures.length > 0, 'the failure is told');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    await until(async () => (await autocheckpoint(database)) === 700, "SQLite's own checkpoint is back, at the configured length");
    // Closing any descriptor of the index would have dropped SQLite's own locks on it (POSIX locks
    // are the process's): the thread has none of its own, and the owner's stays open.
    if (open !== undefined) assert.equal(await descriptorsOf(index), open);
  }, (error) => failures.push(error));
  assert.equal(failures.length, 1);
});

test('stopped before its thread is ready, the checkpointer still answers before the process may exit', async () => {
  // In a process of its own, where nothing else keeps the event loop alive: a thread let go
  // (unref) while stop() waits for it would let the process exit first, with stop() unanswered.
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-checkpointer-'));
  const script = path.join(dataDir, 'stop-early.mjs');
  await fs.writeFile(
    script,
    `import SqliteDatabase from ${JSON.stringify(import.meta.resolve('better-sqlite3'))};
    import { WalCheckpointer } from ${JSON.stringify(new URL('../../src/db/checkpointer.ts', import.meta.url).href)};
    const file = ${JSON.stringify(path.join(dataDir, 'tessera.sqlite'))};
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('create table scratch (id integer primary key)');
    const checkpointer = new WalCheckpointer(file, { intervalMs: 10, pages: 1000 }, (error) => console.log(error.message));
    await checkpointer.stop();
    sqlite.close();
    checkpointer.closeIndex();
    console.log('stopped');`,
  );
  try {
    const child = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(child.stdout.trim(), 'stopped', child.stderr);
    assert.equal(child.status, 0, child.stderr);
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('SQLite: TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS=0 leaves the checkpoint to SQLite (no thread)', async () => {
  await withDatabase({ TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS: '0' }, async (database) => {
    assert.equal(database.checkpointer, undefined);
    assert.equal(await autocheckpoint(database), 1000);
  });
});

test('a checkpoint thread whose database has no shared index cannot start, and says why', () => {
  assert.throws(() => new WalCheckpointer(path.join(os.tmpdir(), 'tessera-no-such-dir', 'none.sqlite'), { intervalMs: 10, pages: 1000 }, () => {}), /ENOENT/);
});
