import { Worker } from 'node:worker_threads';
import type { HashRequest, HashResponse } from './hash-worker.ts';

/**
 * The SHA-256 of large uploads, taken off the event loop (TESSERA_HASH_THREADS). A blob that spills
 * to a staging file is hashed by a thread that reads the file back (from the page cache) as the
 * event loop writes it, so hashing a large upload runs beside parsing and writing it instead of
 * after each chunk: on the event loop it was half of a 1 GiB upload's time there
 * (docs/benchmarks.md, issue 22). Nothing crosses threads but offsets and the digest.
 *
 * Up to `size` threads, started when first needed; a job goes to the one with the fewest. A thread
 * that fails fails its jobs (their uploads), and later jobs get a new one. Idle threads never keep
 * the process alive.
 */
export class HashThreads {
  readonly size: number;
  private readonly threads = new Map<Worker, Set<number>>();
  private readonly waiting = new Map<number, { resolve: (digest: Buffer) => void; reject: (error: Error) => void; thread: Worker }>();
  private nextId = 1;

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`hash threads: ${size} is not a positive integer`);
    this.size = size;
  }

  /** Starts hashing the bytes of the file at `path` from byte `from` on, as they are said to be written. */
  begin(path: string, from: number): GrowingFileDigest {
    const thread = this.leastBusy();
    const id = this.nextId++;
    this.threads.get(thread)!.add(id);
    const digest = new Promise<Buffer>((resolve, reject) => this.waiting.set(id, { resolve, reject, thread }));
    // Answered before anyone awaits it (a file that cannot be opened): held until `finish`.
    digest.catch(() => {});
    const send = (request: HashRequest) => thread.postMessage(request);
    send({ kind: 'start', id, path, from });
    let ended = false;
    return {
      written: (upTo) => {
        if (!ended && this.waiting.has(id)) send({ kind: 'written', id, upTo });
      },
      finish: (length) => {
        if (!ended && this.waiting.has(id)) send({ kind: 'end', id, length });
        ended = true;
        return digest;
      },
      cancel: () => {
        if (ended || !this.waiting.has(id)) return;
        ended = true;
        send({ kind: 'cancel', id });
        this.settle(id, new Error('hashing cancelled'));
      },
    };
  }

  /** Stops the threads; a blob still being hashed fails (the store is closing). */
  async close(): Promise<void> {
    const threads = [...this.threads.keys()];
    this.threads.clear();
    for (const id of [...this.waiting.keys()]) this.settle(id, new Error('hashing stopped: the store is closing'));
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  private leastBusy(): Worker {
    let best: Worker | undefined;
    for (const [thread, jobs] of this.threads) if (!best || jobs.size < this.threads.get(best)!.size) best = thread;
    if (best && (this.threads.get(best)!.size === 0 || this.threads.size >= this.size)) return best;
    return this.start();
  }

  private start(): Worker {
    const thread = new Worker(new URL('./hash-worker.ts', import.meta.url));
    thread.unref();
    this.threads.set(thread, new Set());
    thread.on('message', (response: HashResponse) => this.settle(response.id, 'digest' in response ? Buffer.from(response.digest) : new Error(`hashing failed: ${response.error}`)));
    const failAll = (error: Error) => {
      const jobs = this.threads.get(thread);
      this.threads.delete(thread);
      for (const id of jobs ?? []) this.settle(id, error);
    };
    thread.on('error', (error) => failAll(new Error(`the hashing thread failed: ${error.message}`)));
    thread.on('exit', (code) => failAll(new Error(`the hashing thread stopped (exit code ${code})`)));
    return thread;
  }

  private settle(id: number, outcome: Buffer | Error): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    this.threads.get(waiting.thread)?.delete(id);
    if (outcome instanceof Error) waiting.reject(outcome);
    else waiting.resolve(outcome);
  }
}

/** One file being hashed while it is written. */
export interface GrowingFileDigest {
  /** The file holds its bytes up to `upTo` (exclusive); they may be hashed. */
  written(upTo: number): void;
  /** The blob's bytes end at `length`: its SHA-256, once hashed (rejects if the thread failed). */
  finish(length: number): Promise<Buffer>;
  /** Stops hashing (the upload failed); the file may be removed at once. */
  cancel(): void;
}
