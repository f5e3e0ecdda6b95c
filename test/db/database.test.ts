import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { loadConfig } from '../../src/config.ts';
import { openMigratedDatabase } from '../../src/db/database.ts';

test('SQLite: a database opened while another process writes the new file waits it out instead of failing to start', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-open-'));
  const file = path.join(dataDir, 'tessera.sqlite');
  // The file as another replica may leave it in the middle of its own start: not yet in WAL, with a write open.
  const first = new SqliteDatabase(file);
  first.exec('CREATE TABLE started (at INTEGER)');
  first.close();
  // Another process holds the write lock for a moment. Turning the file to WAL beside it is refused
  // busy at once, without SQLite's busy wait: before the open retried, the second replica exited.
  const holder = spawn(
    process.execPath,
    ['-e', `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(file)}); db.exec('BEGIN IMMEDIATE'); db.exec('INSERT INTO started VALUES (1)'); console.log('held'); setTimeout(() => { db.exec('COMMIT'); db.close(); }, 400);`],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => holder.on('exit', resolve));
  try {
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    const started = performance.now();
    const database = await openMigratedDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir, TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS: '0' }));
    try {
      assert.ok(performance.now() - started > 100, 'the open waited for the other process');
      assert.equal(await exited, 0, 'the other process committed');
      const rows = await database.db.selectFrom('api_keys').select('id').execute();
      assert.deepEqual(rows, [], 'and the database opened migrated');
    } finally {
      await database.close();
    }
  } finally {
    holder.kill();
    await exited;
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
