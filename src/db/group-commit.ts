import type { ControlledTransaction, Kysely, Transaction } from 'kysely';
import { directRunnerOf, type DirectRunner } from './database.ts';
import type { Schema } from './schema.ts';
import type { WalSync } from './wal-sync.ts';

interface Job {
  work: (trx: Transaction<Schema>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for SQLite. The writes that arrive while the event loop is busy are put into one
 * transaction, each inside its own SAVEPOINT: a write that fails is rolled back alone and fails
 * alone, the others commit together. Every caller is answered only after the COMMIT that holds
 * its write (or after its own failure) and, where the log is synced off the event loop
 * (`WalSync`, the default), after the sync that follows it: an acknowledged write is on disk.
 * The next batch begins once that sync has ended, so the writes that arrive meanwhile share the
 * next one (beginning at once took twice the syncs for the same uploads, and more CPU).
 *
 * PostgreSQL does not need this: it already flushes the WAL once for many concurrent commits,
 * and its writers run in parallel on a pool of connections.
 */
export class GroupCommit {
  private readonly db: Kysely<Schema>;
  private readonly maxBatch: number;
  private readonly direct: DirectRunner | undefined;
  private readonly queue: Job[] = [];
  private running = false;
  /** Transactions committed, and the writes they held: how well writes are grouped. */
  commits = 0;
  writes = 0;
  private scheduled = false;
  private readonly wal: Pick<WalSync, 'commitThenSync'> | undefined;

  /** `wal`: the log's syncer when SQLite syncs it off the event loop (`Database.walSync`). */
  constructor(db: Kysely<Schema>, maxBatch: number, wal?: Pick<WalSync, 'commitThenSync'>) {
    this.db = db;
    this.maxBatch = maxBatch;
    this.direct = directRunnerOf(db);
    this.wal = wal;
  }

  run<T>(work: (trx: Transaction<Schema>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** After the current turn of the event loop, so that writes made ready in it share a commit. */
  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /**
   * A savepoint for one write: its statements run straight on the connection the batch's
   * transaction holds (directRunnerOf), else through Kysely's savepoint transactions.
   */
  private async savepoint(trx: ControlledTransaction<Schema>, name: string): Promise<{ trx: Transaction<Schema>; release(): Promise<unknown>; rollback(): Promise<unknown> }> {
    const run = this.direct;
    if (run?.(`savepoint "${name}"`, [])) {
      return { trx, release: async () => run(`release "${name}"`, []), rollback: async () => run(`rollback to "${name}"`, []) };
    }
    const point = await trx.savepoint(name).execute();
    return { trx: point, release: () => point.releaseSavepoint(name).execute(), rollback: () => point.rollbackToSavepoint(name).execute() };
  }

  private async flush(): Promise<void> {
    if (this.running || this.queue.length === 0) return;
    this.running = true;
    const batch = this.queue.splice(0, this.maxBatch);
    const outcomes: Array<() => void> = [];
    let durable: Promise<void> | undefined;
    try {
      const trx = await this.db.startTransaction().execute();
      try {
        for (const [index, job] of batch.entries()) {
          const savepoint = await this.savepoint(trx, `w${index}`);
          try {
            const value = await job.work(savepoint.trx);
            await savepoint.release();
            outcomes.push(() => job.resolve(value));
          } catch (error) {
            await savepoint.rollback();
            outcomes.push(() => job.reject(error));
          }
        }
        const commit = () => trx.commit().execute();
        if (this.wal) ({ durable } = await this.wal.commitThenSync(commit));
        else await commit();
        this.commits++;
        this.writes += batch.length;
      } catch (error) {
        await trx.rollback().execute().catch(() => {});
        throw error;
      }
      await durable;
      for (const settle of outcomes) settle();
    } catch (error) {
      // The batch as a whole did not commit, or its log's sync failed: no caller may hear that
      // its write is stored.
      for (const job of batch) job.reject(error);
    } finally {
      this.running = false;
      if (this.queue.length > 0) this.schedule();
    }
  }
}
