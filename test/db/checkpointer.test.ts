import assert from 'node:assert/strict';
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

/** 0: OFF, 1: NORMAL, 2: FULL. */
const synchronous = async (database: Database) => (await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db)).rows[0]!.synchronous;
const autocheckpoint = async (database: Database) => (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db)).rows[0]!.wal_autocheckpoint;

test('SQLite: under steady writes the log is copied by the checkpoint thread, the writers held for it, and it starts over instead of growing', async () => {
  await withDatabase({ TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS: '2', TESSERA_SQLITE_CHECKPOINT_PAGES: '100' }, async (database, dataDir) => {
    assert.ok(database.checkpointer, 'a checkpoint thread by default');
    await database.checkpointer.ready;
    // The server's own connection never checkpoints: a COMMIT never copies the log on the event loop.
    assert.equal(await autocheckpoint(database), 0);
    await sql`create table scratch (id integer primary key, body blob)`.execute(database.db);
    const wal = path.join(dataDir, 'tessera.sqlite-wal');
    let largest = 0;
    // 40 bursts of 256 KiB, one after another with no pause: 10 MiB of log if nothing copied it,
    // and a checkpoint beside the writer never catches up.
    for (let round = 0; round < 40; round++) {
      await writeBurst(database, round);
      largest = Math.max(largest, (await fs.stat(wal)).size);
    }
    const { quiets } = database.checkpointer.counts();
    assert.ok(quiets >= 5, `the writers were held for ${quiets} copies`);
    // Copied at 100 pages (400 KiB), the log stays within a few bursts past that.
    assert.ok(largest < 2 * 1024 * 1024, `the log grew to ${largest} bytes`);
    const { count } = (await sql<{ count: number }>`select count(*) as count from scratch`.execute(database.db)).rows[0]!;
    assert.equal(count, 40 * 64);
  });
});

test('SQLite: if the checkpoint thread fails, the connection takes its own checkpoint back, and says so', async () => {
  const failures: Error[] = [];
  await withDatabase({ TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS: '10' }, async (database) => {
    await database.checkpointer!.ready;
    assert.equal(await autocheckpoint(database), 0);
    // Each commit is synced by the server (wal-sync.ts), checkpoints by the thread: none by SQLite.
    assert.equal(await synchronous(database), 0);
    // The thread dies as a crash in it would end it.
    await database.checkpointer!['worker'].terminate();
    await until(() => failures.length > 0, 'the failure is told');
    assert.equal(await autocheckpoint(database), 1000);
    // SQLite's own checkpoints sync what they copy again.
    assert.equal(await synchronous(database), 1);
  }, (error) => failures.push(error));
  assert.equal(failures.length, 1);
});

test('SQLite: TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS=0 leaves the checkpoint to SQLite (no thread)', async () => {
  await withDatabase({ TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS: '0' }, async (database) => {
    assert.equal(database.checkpointer, undefined);
    assert.equal(await autocheckpoint(database), 1000);
    assert.equal(await synchronous(database), 1);
  });
});

test('a checkpoint thread that cannot open its file fails, and says why', async () => {
  const failed = new Promise<Error>((resolve) => {
    const checkpointer = new WalCheckpointer(path.join(os.tmpdir(), 'tessera-no-such-dir', 'none.sqlite'), { intervalMs: 10, pages: 1000 }, resolve);
    void checkpointer.ready;
  });
  assert.match((await failed).message, /directory does not exist|unable to open|exited/);
});
