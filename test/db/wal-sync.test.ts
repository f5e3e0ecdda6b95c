import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { directReaderOf, openMigratedDatabase, type Database } from '../../src/db/database.ts';
import { GroupCommit } from '../../src/db/group-commit.ts';
import type { Datasync } from '../../src/db/wal-sync.ts';
import { freshDatabase, dialects } from '../helpers/databases.ts';

/**
 * The log's real data sync, watched: each sync is counted with the file it synced, and a sync
 * that begins while the gate is held does not end until it is released (a slow disk), so a test
 * can see what waits for it.
 */
function watchedSync() {
  const synced: string[] = [];
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  let failNext: Error | undefined;
  return {
    synced,
    /** Syncs begun so far. */
    begun: 0,
    hold() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release() {
      open?.();
      gate = undefined;
    },
    failNextWith(error: Error) {
      failNext = error;
    },
    get datasync(): Datasync {
      return async (file) => {
        this.begun++;
        const held = gate;
        await file.datasync();
        synced.push(await fs.realpath(`/proc/self/fd/${file.fd}`));
        if (failNext) {
          const error = failNext;
          failNext = undefined;
          throw error;
        }
        await held;
      };
    },
  };
}

async function openSqlite(env: Record<string, string>, datasync: Datasync): Promise<{ database: Database; dataDir: string }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-wal-sync-'));
  const database = await openMigratedDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir, ...env }), { walDatasync: datasync });
  return { database, dataDir };
}

/** Waits until `condition` holds (polling), at most `ms`. */
async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** Whether `promise` has settled by the time the event loop has turned a few times. */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

const account = (id: string) => ({ id, name: id, created_at: 1 });

test('SQLite with FULL: the log is synced off the event loop; a write resolves only after a sync that began after it; a read needs none', { timeout: 20_000 }, async () => {
  const watch = watchedSync();
  const { database, dataDir } = await openSqlite({}, watch.datasync);
  const { db } = database;
  try {
    assert.equal((await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]?.synchronous, 1, 'SQLite itself does not sync at COMMIT (NORMAL)');
    assert.ok(database.walSync, 'the log has a syncer');

    // A write outside a transaction, and a transaction's COMMIT: each waits for a sync of the log.
    watch.synced.length = 0;
    watch.hold();
    const write = db.insertInto('accounts').values(account('acc_alone')).execute();
    assert.equal(await settledSoon(write), false, 'the write waits for its sync');
    // Meanwhile the event loop serves others, and the hot reads (which skip Kysely) answer.
    const read = directReaderOf(db)!('select "id" from "accounts" where "id" = ?', ['acc_alone']) as Array<{ id: string }>;
    assert.deepEqual(read, [{ id: 'acc_alone' }]);
    watch.release();
    await write;
    assert.deepEqual(watch.synced, [await fs.realpath(path.join(dataDir, 'tessera.sqlite-wal'))], 'one sync, of the log');

    watch.synced.length = 0;
    watch.hold();
    const begun = watch.begun;
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('accounts').values(account('acc_in_a_transaction')).execute();
      await trx.insertInto('accounts').values(account('acc_in_a_transaction_2')).execute();
    });
    assert.equal(await settledSoon(transaction), false, 'the COMMIT waits for its sync');
    await until(() => watch.begun > begun);
    assert.equal(watch.begun - begun, 1, 'one sync, for the COMMIT: the statements inside the transaction waited for none');
    watch.release();
    await transaction;

    // Reads, in or out of a transaction, sync nothing.
    watch.synced.length = 0;
    await db.selectFrom('accounts').selectAll().execute();
    await db.transaction().execute((trx) => trx.selectFrom('accounts').selectAll().execute());
    assert.equal(watch.synced.length, 1, 'only the read-only transaction\'s end: a COMMIT is synced whatever it held');
  } finally {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('SQLite: commits made while a sync runs share the next one; a failed sync fails its write, and the next write syncs anew', { timeout: 20_000 }, async () => {
  const watch = watchedSync();
  const { database, dataDir } = await openSqlite({}, watch.datasync);
  const { db } = database;
  try {
    const wal = database.walSync!;
    watch.synced.length = 0;
    watch.hold();
    const first = wal.afterCommit();
    // Ten more commits while the first sync runs: one sync, begun when the first ends, holds them all.
    const others = Array.from({ length: 10 }, () => wal.afterCommit());
    assert.equal(new Set(others).size, 1, 'one promise for all ten');
    assert.notEqual(others[0], first);
    watch.release();
    await Promise.all([first, ...others]);
    assert.equal(watch.synced.length, 2);

    watch.failNextWith(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await assert.rejects(db.insertInto('accounts').values(account('acc_unsynced')).execute(), /EIO/, 'a write whose sync failed is not answered as stored');
    watch.synced.length = 0;
    await db.insertInto('accounts').values(account('acc_after')).execute();
    assert.equal(watch.synced.length, 1, 'the next write syncs again, on the file opened anew');
  } finally {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('SQLite group commit: a batch is answered after its sync, with the connection free meanwhile; a failed sync fails every write of the batch', { timeout: 20_000 }, async () => {
  const watch = watchedSync();
  const { database, dataDir } = await openSqlite({}, watch.datasync);
  const { db } = database;
  try {
    const group = new GroupCommit(db, 256, database.walSync);
    watch.hold();
    const begun = watch.begun;
    const writes = Array.from({ length: 8 }, (_, i) => group.run((trx) => trx.insertInto('accounts').values(account(`acc_batch_${i}`)).execute()));
    await until(() => watch.begun > begun);
    assert.equal(watch.begun - begun, 1, 'the batch committed and its sync began');
    assert.equal(await settledSoon(Promise.race(writes)), false, 'no write is answered before the sync ends');
    // The connection is free: another caller's transaction runs while the batch's sync is held
    // (its own COMMIT then waits for a sync that begins after it).
    let seen: number | undefined;
    const other = db.transaction().execute(async (trx) => {
      seen = (await trx.selectFrom('accounts').select('id').where('id', 'like', 'acc_batch_%').execute()).length;
    });
    await until(() => seen !== undefined);
    assert.equal(seen, 8);
        watch.release();
    await Promise.all([...writes, other]);

    watch.failNextWith(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    const failing = await Promise.allSettled(Array.from({ length: 3 }, (_, i) => group.run((trx) => trx.insertInto('accounts').values(account(`acc_lost_${i}`)).execute())));
    assert.deepEqual(failing.map((outcome) => outcome.status), ['rejected', 'rejected', 'rejected']);
  } finally {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('SQLite with TESSERA_SQLITE_SYNCHRONOUS=NORMAL: no sync after a commit, as asked', { timeout: 20_000 }, async () => {
  const watch = watchedSync();
  const { database, dataDir } = await openSqlite({ TESSERA_SQLITE_SYNCHRONOUS: 'NORMAL' }, watch.datasync);
  try {
    assert.equal(database.walSync, undefined);
    await database.db.insertInto('accounts').values(account('acc_normal')).execute();
    assert.deepEqual(watch.synced, []);
  } finally {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

for (const dialect of (await dialects()).filter((d) => d === 'postgres')) {
  test('PostgreSQL keeps its own durable commits: no log syncer', { timeout: 20_000 }, async () => {
    const testDatabase = await freshDatabase(dialect);
    const database = await openMigratedDatabase(loadConfig({ DATABASE_URL: testDatabase.databaseUrl }));
    try {
      assert.equal(database.walSync, undefined);
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });
}
