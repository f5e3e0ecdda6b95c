// The thread of WalCheckpointer (checkpointer.ts): a connection of its own to the SQLite file that
// copies the write-ahead log into the database, so that neither the copy nor its two syncs run on
// the event loop. Everything it shares with its owner is in `state` (CHECKPOINT_STATE); the
// messages it sends are 'ready', 'quiet' (hold the writers) and 'quiet-done'.
import fs from 'node:fs';
import os from 'node:os';
import SqliteDatabase from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { CHECKPOINT_STATE as S, QUIET, type CheckpointThreadData } from './checkpointer.ts';

const { file, indexFd, intervalMs, lagPages, quietTimeoutMs, state } = workerData as CheckpointThreadData;
const shared = new Int32Array(state);
const port = parentPort!;
const sqlite = new SqliteDatabase(file, { fileMustExist: true });
// A checkpoint syncs the log before it copies and the database after, unless the connection's
// level is OFF. A connection's level is its own: NORMAL, whatever the server's writes use.
sqlite.pragma('synchronous = NORMAL');
// A checkpoint that cannot run now (another connection holds what it needs) runs at the next turn.
sqlite.pragma('busy_timeout = 0');
const statement = sqlite.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const readVersion = sqlite.prepare('PRAGMA user_version').pluck();

/**
 * The log's length in pages, read from the header of its shared index (the `-shm` file every
 * connection maps: https://sqlite.org/walformat.html, "mxFrame" at byte 16, in the machine's own
 * byte order). A read of 4 bytes from the page cache: cheap enough to look often, where a
 * checkpoint to learn the length would sync two files. The descriptor is the owner's, opened
 * before this thread and closed after the last connection: closing any descriptor of the file
 * would drop every lock this process holds on it, SQLite's own included (POSIX locks are the
 * process's), so this thread never opens or closes one.
 */
const header = Buffer.alloc(4);
const readLength = os.endianness() === 'LE' ? () => header.readUInt32LE(0) : () => header.readUInt32BE(0);
function logPages(): number {
  return fs.readSync(indexFd, header, 0, 4, 16) === 4 ? readLength() : 0;
}
port.postMessage('ready');

/** One PASSIVE checkpoint: copies what no reader still needs; answers whether it copied the whole log. */
function checkpoint(): boolean {
  // A checkpoint that cannot take its lock (another connection's is running) says so in its row.
  const [result] = statement.all() as Array<{ busy: number; log: number; checkpointed: number }>;
  if (!result || result.busy !== 0) {
    Atomics.add(shared, S.busy, 1);
    return false;
  }
  Atomics.store(shared, S.logPages, result.log);
  const complete = result.checkpointed >= result.log;
  if (!complete) Atomics.add(shared, S.incomplete, 1);
  return complete;
}

/**
 * The writer starts the log over only if, when its transaction began, all of the log had been
 * copied. Under steady writes a checkpoint beside them never copies the last pages in time, and
 * the log would grow without end. So the writers are held (the owner takes the connection between
 * two transactions; readers go on) while the log is copied, after which the next write starts it
 * over: what SQLite's own checkpoint does to the writers, without holding the event loop.
 * Answers whether the whole log was copied (undefined: the writers were not held in time).
 */
function quietCheckpoint(): boolean | undefined {
  Atomics.store(shared, S.quiet, QUIET.asked);
  port.postMessage('quiet');
  Atomics.wait(shared, S.quiet, QUIET.asked, quietTimeoutMs);
  // Not held in time (a long transaction): give up this once, unless the owner held them just now.
  if (Atomics.compareExchange(shared, S.quiet, QUIET.asked, QUIET.idle) === QUIET.asked) return undefined;
  try {
    Atomics.add(shared, S.quiets, 1);
    const complete = checkpoint();
    if (complete) startOver();
    return complete;
  } finally {
    Atomics.store(shared, S.quiet, QUIET.idle);
    port.postMessage('quiet-done');
  }
}

/**
 * Starts the log over here, while the writers are still held: the first write after a whole copy
 * does it, and before its frames it syncs the log's new header (so that a power loss cannot leave
 * some of them on disk out of order). Made by the server's connection, that sync would be the one
 * left on the event loop; so this connection writes first, the database's own version number set
 * to what it is (nothing of the schema or the data changes; no one here reads it). If it cannot
 * (another process holds the write lock), the server's next write starts the log over, as before.
 */
/** Read and written in one transaction: another process's change between the two is not undone. */
const setVersionAgain = sqlite.transaction(() => sqlite.pragma(`user_version = ${Number(readVersion.get())}`));
function startOver(): void {
  try {
    setVersionAgain.immediate();
  } catch (error) {
    if (!(error instanceof SqliteDatabase.SqliteError) || !error.code.startsWith('SQLITE_BUSY')) throw error;
  }
}

/**
 * The log's length at which the next copy is due. After a whole copy the log stays that long until
 * the next write starts it over, so nothing is due until it grows (or starts over, shorter); after
 * a partial one (a reader in another process still needs the rest), not until another `lagPages`.
 */
let due = lagPages;
let last = 0;
// Atomics.wait sleeps the thread until the interval passes or the owner asks it to stop.
while (Atomics.wait(shared, S.stop, 0, intervalMs) !== 'ok' && Atomics.load(shared, S.stop) === 0) {
  const length = logPages();
  // Shorter than last time: the log started over, and the next copy is due at lagPages again.
  if (length < last) due = lagPages;
  last = length;
  if (length < due) continue;
  const complete = quietCheckpoint();
  if (complete !== undefined) due = complete ? length + 1 : length + lagPages;
}
sqlite.close();
