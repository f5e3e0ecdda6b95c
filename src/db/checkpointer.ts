import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { DatabaseConnection, Dialect, Driver } from 'kysely';
import { DelegatingDriver } from './delegating-driver.ts';

/** What the checkpoint thread and its owner share: one Int32 each. */
export const CHECKPOINT_STATE = {
  /** Set to 1 (and notified) to stop the thread. */
  stop: 0,
  /** Checkpoints that could not copy all of the log (a reader in another process still needed some). */
  incomplete: 1,
  /** Checkpoints that could not run (another connection's checkpoint held the lock). */
  busy: 2,
  /** The log's length in pages at the last checkpoint (before the next write starts it over). */
  logPages: 3,
  /** The hold of the writers for a copy (QUIET). */
  quiet: 4,
  /** Copies made while the writers were held. */
  quiets: 5,
} as const;

/** The states of CHECKPOINT_STATE.quiet. */
export const QUIET = { idle: 0, asked: 1, held: 2 } as const;

export interface CheckpointThreadData {
  file: string;
  /** The owner's descriptor of the log's shared index (`-shm`), read for the log's length. */
  indexFd: number;
  /** How often the thread reads the log's length. */
  intervalMs: number;
  /** A log this long (in pages) is copied, the writers held, after which the next write starts it over. */
  lagPages: number;
  /** How long the thread waits for the writers to be held before it gives up until next time. */
  quietTimeoutMs: number;
  state: SharedArrayBuffer;
}

/** SQLite's own threshold (pages of log): the thread's too unless TESSERA_SQLITE_CHECKPOINT_PAGES says otherwise. */
export const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/** The longest the writers are held for a last copy (its two syncs, on a slow disk, and the copy). */
const QUIET_HOLD_MS = 10_000;
/** How long the thread waits to be given the writers' hold. */
const QUIET_TIMEOUT_MS = 1000;

/**
 * Copies SQLite's write-ahead log into the database on a thread of its own.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that takes the log past 1,000 pages, on the
 * connection that committed: for this server, the event loop. It copies the log into the database
 * and syncs both files, and every request waits meanwhile (two syncs and the copy: milliseconds on
 * a slow disk, every few hundred uploads). So the server's connection never checkpoints
 * (`wal_autocheckpoint = 0`). A second connection, on this thread, reads the log's length every
 * `intervalMs`, and once it passes `lagPages` copies it, as SQLite would have.
 *
 * The writer starts the log over only when all of it was copied before its transaction began; a
 * checkpoint beside steady writes never catches up, and the log would grow without end. So for
 * the copy the writers are held: at the thread's word, the owner takes the connection between two
 * transactions (`gated`: new transactions and Kysely's queries wait; the direct reads go on), the
 * thread copies, and starts the log over with a write of its own (so that the sync of the log's new
 * header is the thread's too). Writers wait as long as they did for SQLite's own checkpoint; the
 * event loop, and every read, do not.
 *
 * If the thread fails, the connection takes SQLite's own checkpoint back (`onFailure` is told),
 * so the log never grows without a bound.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly shared: Int32Array;
  /** The log's shared index, open for the thread to read from: closed only after every connection (see checkpoint-thread.ts). */
  private readonly indexFd: number;
  private stopped: Promise<void> | undefined;
  private failed = false;
  /** The driver of the connection the writers use (from `gated`), once Kysely has initialised it: taken to hold them. */
  private driver: Driver | undefined;
  /** While the writers are held: what every new acquisition of the connection waits for. */
  private hold: Promise<void> | undefined;
  /** Resolves the hold's wait for the thread's copy. */
  private quietDone: (() => void) | undefined;
  readonly ready: Promise<void>;

  /** `file`: a database in WAL mode that a connection of this process has read (so that its `-shm` exists). */
  constructor(file: string, settings: { intervalMs: number; pages: number }, onFailure: (error: Error) => void) {
    const state = new SharedArrayBuffer(4 * Object.keys(CHECKPOINT_STATE).length);
    this.shared = new Int32Array(state);
    this.indexFd = fs.openSync(`${file}-shm`, 'r');
    const data: CheckpointThreadData = { file, indexFd: this.indexFd, intervalMs: settings.intervalMs, lagPages: settings.pages, quietTimeoutMs: QUIET_TIMEOUT_MS, state };
    this.worker = new Worker(new URL('./checkpoint-thread.ts', import.meta.url), { workerData: data });
    // Once started, the thread sleeps between checkpoints: it must not keep the process alive
    // (until then it does, so that whoever waits for `ready` is not left behind by an exit).
    this.ready = new Promise<void>((resolve) => {
      this.worker.once('message', () => resolve());
      this.worker.once('exit', () => resolve());
    }).then(() => {
      if (!this.stopped && !this.hold) this.worker.unref();
    });
    this.worker.on('message', (message: unknown) => {
      if (message === 'quiet') this.holdWriters();
      else if (message === 'quiet-done') this.quietDone?.();
    });
    const fail = (error: Error) => {
      this.quietDone?.();
      if (this.failed || this.stopped) return;
      this.failed = true;
      onFailure(error);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the checkpoint thread exited with code ${code}`)));
  }

  /** How many copies held the writers, how many could not copy all of the log, how many found another checkpoint running; the log's length in pages at the last. */
  counts(): { quiets: number; incomplete: number; busy: number; logPages: number } {
    const read = (at: number) => Atomics.load(this.shared, at);
    return { quiets: read(CHECKPOINT_STATE.quiets), incomplete: read(CHECKPOINT_STATE.incomplete), busy: read(CHECKPOINT_STATE.busy), logPages: read(CHECKPOINT_STATE.logPages) };
  }

  /** SQLite's dialect, its connection taken while the thread asks for the writers to be held. */
  gated(dialect: Dialect): Dialect {
    return {
      createAdapter: () => dialect.createAdapter(),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createIntrospector: (db) => dialect.createIntrospector(db),
      createDriver: () => {
        const driver = dialect.createDriver();
        return new GatedDriver(driver, () => this.hold, () => (this.driver = driver));
      },
    };
  }

  /** Takes the connection between two transactions, lets the thread copy the log, then gives it back. */
  private holdWriters(): void {
    const driver = this.driver;
    // Before Kysely's first query the connection is not there to take: the thread gives up this once.
    if (this.hold || !driver || this.stopped || this.failed) return;
    // Writers wait for the thread's answer: the process must stay for it.
    this.worker.ref();
    this.hold = (async () => {
      const connection = await driver.acquireConnection();
      let timer: NodeJS.Timeout | undefined;
      try {
        // The thread may have ended, or given up waiting, meanwhile: then there is nothing to hold for.
        if (this.stopped || this.failed) return;
        const done = new Promise<void>((resolve) => {
          this.quietDone = resolve;
          timer = setTimeout(resolve, QUIET_HOLD_MS);
        });
        if (Atomics.compareExchange(this.shared, CHECKPOINT_STATE.quiet, QUIET.asked, QUIET.held) !== QUIET.asked) return;
        Atomics.notify(this.shared, CHECKPOINT_STATE.quiet);
        await done;
      } finally {
        clearTimeout(timer);
        this.quietDone = undefined;
        this.hold = undefined;
        if (!this.stopped) this.worker.unref();
        await driver.releaseConnection(connection);
      }
    })().catch(() => {
      // The connection could not be taken (the database is closing): nothing was held.
      this.hold = undefined;
    });
  }

  /** Ends the thread after the checkpoint it may be running, and waits for it. */
  stop(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      // Held again while it ends: whoever waits for the end must not be left behind by an exit.
      this.worker.ref();
      this.worker.once('exit', () => resolve());
      Atomics.store(this.shared, CHECKPOINT_STATE.stop, 1);
      Atomics.notify(this.shared, CHECKPOINT_STATE.stop);
      // A thread waiting for the writers' hold gives up at once.
      Atomics.notify(this.shared, CHECKPOINT_STATE.quiet);
      // Already gone (it failed): nothing will exit again.
      if (this.worker.threadId === -1) resolve();
    });
    return this.stopped;
  }

  /** Closes the index's descriptor: only once no connection of this process has the file open (its locks go with any descriptor closed). */
  closeIndex(): void {
    fs.closeSync(this.indexFd);
  }
}

/** A driver whose connection is acquired only once the writers' hold (if any) is over. */
class GatedDriver extends DelegatingDriver {
  private readonly holding: () => Promise<void> | undefined;
  private readonly initialized: () => void;

  constructor(inner: Driver, holding: () => Promise<void> | undefined, initialized: () => void) {
    super(inner);
    this.holding = holding;
    this.initialized = initialized;
  }

  override async init(): Promise<void> {
    await this.inner.init();
    this.initialized();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    for (let hold = this.holding(); hold; hold = this.holding()) await hold;
    return this.inner.acquireConnection();
  }
}
