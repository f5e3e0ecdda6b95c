// A thread of HashThreads (hash-threads.ts): hashes growing files, reading back what the event
// loop has written to them. Each job reads its file with its own positioned reads, never past what
// it was told is written, and answers the SHA-256 of its bytes once told where they end.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';

export type HashRequest =
  /** Hash `path` from byte `from` on (its bytes before that are not the blob's: the quilt header). */
  | { kind: 'start'; id: number; path: string; from: number }
  /** Bytes before `upTo` are in the file. */
  | { kind: 'written'; id: number; upTo: number }
  /** The blob ends at `length`: answer its digest. */
  | { kind: 'end'; id: number; length: number }
  | { kind: 'cancel'; id: number };
export type HashResponse = { id: number; digest: Uint8Array } | { id: number; error: string };

/** Bytes read at a time: one positioned read per megabyte of the page cache. */
const READ_BYTES = 1024 * 1024;
const buffer = Buffer.allocUnsafe(READ_BYTES);

interface Job {
  fd: number;
  hash: Hash;
  /** The next byte to hash. */
  at: number;
}
const jobs = new Map<number, Job>();
const port = parentPort!;

function drop(id: number, job: Job): void {
  jobs.delete(id);
  fs.closeSync(job.fd);
}

port.on('message', (request: HashRequest) => {
  if (request.kind === 'start') {
    try {
      jobs.set(request.id, { fd: fs.openSync(request.path, 'r'), hash: createHash('sha256'), at: request.from });
    } catch (error) {
      port.postMessage({ id: request.id, error: (error as Error).message } satisfies HashResponse);
    }
    return;
  }
  const job = jobs.get(request.id);
  // A job that failed already (its error was answered) or was cancelled.
  if (!job) return;
  if (request.kind === 'cancel') return drop(request.id, job);
  const upTo = request.kind === 'written' ? request.upTo : request.length;
  try {
    while (job.at < upTo) {
      const read = fs.readSync(job.fd, buffer, 0, Math.min(READ_BYTES, upTo - job.at), job.at);
      if (read === 0) throw new Error(`the file ends at byte ${job.at}, before ${upTo}`);
      job.hash.update(buffer.subarray(0, read));
      job.at += read;
    }
    if (request.kind === 'end') {
      if (job.at !== request.length) throw new Error(`the blob ends at byte ${request.length}, before ${job.at} already hashed`);
      drop(request.id, job);
      port.postMessage({ id: request.id, digest: job.hash.digest() } satisfies HashResponse);
    }
  } catch (error) {
    drop(request.id, job);
    port.postMessage({ id: request.id, error: (error as Error).message } satisfies HashResponse);
  }
});
