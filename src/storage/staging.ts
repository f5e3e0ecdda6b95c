import { createHash, randomBytes, type Hash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { BlobTooLargeError, type BlobLocation, type StagedBlob } from './blob-store.ts';
import type { GrowingFileDigest, HashThreads } from './hash-threads.ts';
import { encodeHeader } from './quilt-format.ts';

/**
 * Receiving a blob, the same for every engine: the bytes are hashed as they arrive; small blobs
 * are held in memory (to be packed with others), larger ones spill to a temp file that already
 * starts with a quilt header, so sealing it is appending the index and footer. A spilled blob is
 * hashed by a hash thread when the engine has them (hash-threads.ts), from the file as it grows.
 */

/** Bytes of a large upload gathered before each write to its spill file. */
const SPILL_WRITE_BYTES = 1024 * 1024;
/**
 * A spill file that will be synced is flushed in the background every this many bytes, so that
 * the disk writes a large upload while the rest of it still arrives. Without it the whole file
 * waits in the page cache (the kernel starts writing back only at a tenth of memory) and the
 * final sync pays for all of it after the last byte (on its own this change made a 1 GiB upload
 * 1.24x faster in one run, docs/benchmarks.md "Fourth pass").
 */
export const SPILL_FLUSH_BYTES = 64 * 1024 * 1024;
/** Temp files untouched for this long belong to no live upload (a crash left them). */
export const STALE_TEMP_MS = 60 * 60 * 1000;

export async function stageBlob(
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
  { maxBytes, inlineMaxBytes, tmpDir, durable = false, hashThreads }: {
    maxBytes: number;
    inlineMaxBytes: number;
    tmpDir: string;
    /** The spill file will be sealed with a sync (the local store): flush it as it grows. */
    durable?: boolean;
    /** Given: a blob that spills is hashed by these threads, from its file, not on the event loop. */
    hashThreads?: HashThreads;
  },
): Promise<MemoryBlob | SpilledBlob> {
  // Hashed here while the blob is held in memory; once it spills, by a hash thread when there are
  // any (which hashes the whole file from its first byte: what was hashed here is dropped).
  let hash: Hash | undefined = createHash('sha256');
  let offThread: GrowingFileDigest | undefined;
  let size = 0;
  let chunks: Buffer[] = [];
  let spill: SpillFile | undefined;
  // A large file arrives in the parser's small chunks: they go to disk a megabyte at a time
  // (one writev), not one write each.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // One write in flight while the next megabyte arrives and is hashed: awaiting each write
  // before reading on left the loop idle for every write (about half of a 1 GiB transfer).
  let writing: Promise<void> | undefined;
  try {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > maxBytes) throw new BlobTooLargeError(maxBytes);
      hash?.update(chunk);
      if (spill) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= SPILL_WRITE_BYTES) {
          await writing;
          const file = spill;
          writing = file.append(pending).then(() => offThread?.written(file.length));
          // A failed write is awaited (and thrown) at the next one or after the last chunk.
          writing.catch(() => {});
          pending = [];
          pendingBytes = 0;
        }
      } else if (size > inlineMaxBytes) {
        spill = await SpillFile.create(tmpDir, undefined, { flushEveryBytes: durable ? SPILL_FLUSH_BYTES : undefined });
        if (hashThreads) {
          offThread = hashThreads.begin(spill.path, spill.header.length);
          hash = undefined;
        }
        await spill.append([...chunks, chunk]);
        offThread?.written(spill.length);
        chunks = [];
      } else {
        chunks.push(chunk);
      }
    }
    await writing;
    if (spill && pending.length > 0) await spill.append(pending);
    const digest = offThread ? await offThread.finish(spill!.length) : hash!.digest();
    return spill ? new SpilledBlob(digest, size, spill) : new MemoryBlob(digest, size, chunks);
  } catch (error) {
    offThread?.cancel();
    await writing?.catch(() => {});
    await spill?.discard();
    throw error;
  }
}

/** Removes temp files a crash left behind (untouched for STALE_TEMP_MS). */
export async function removeStaleTemps(tmpDir: string): Promise<void> {
  const now = Date.now();
  for (const name of await fs.readdir(tmpDir)) {
    const file = path.join(tmpDir, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat && now - stat.mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true });
  }
}

/** A temp file in the staging directory that becomes a quilt once sealed. */
export class SpillFile {
  readonly path: string;
  readonly header: Buffer;
  private handle: FileHandle | undefined;
  /** Bytes written so far, the header's included. */
  length = 0;
  private readonly flushEveryBytes: number | undefined;
  private unflushedBytes = 0;
  /** At most one background data sync at a time; its failure fails the seal. */
  private flushing: Promise<void> | undefined;
  private flushError: unknown;
  private constructor(
    path: string,
    header: Buffer,
    handle: FileHandle | undefined,
    flushEveryBytes: number | undefined,
  ) {
    this.path = path;
    this.header = header;
    this.handle = handle;
    this.flushEveryBytes = flushEveryBytes;
  }

  static async create(tmpDir: string, header = encodeHeader(randomBytes(8)), { flushEveryBytes }: { flushEveryBytes?: number } = {}): Promise<SpillFile> {
    const file = path.join(tmpDir, `${randomBytes(12).toString('hex')}.part`);
    const handle = await fs.open(file, 'wx');
    const spill = new SpillFile(file, header, handle, flushEveryBytes);
    await spill.append([header]);
    return spill;
  }

  async append(buffers: Buffer[]): Promise<void> {
    const handle = this.handle!;
    // writev takes at most IOV_MAX buffers per call on some systems; stay well below.
    for (let i = 0; i < buffers.length; i += 512) {
      const slice = buffers.slice(i, i + 512);
      const expected = slice.reduce((n, b) => n + b.length, 0);
      const { bytesWritten } = await handle.writev(slice);
      if (bytesWritten !== expected) await handle.write(Buffer.concat(slice).subarray(bytesWritten));
      this.unflushedBytes += expected;
      this.length += expected;
    }
    if (this.flushEveryBytes !== undefined && this.unflushedBytes >= this.flushEveryBytes && !this.flushing) {
      this.unflushedBytes = 0;
      this.flushing = handle
        .datasync()
        .catch((error: unknown) => {
          this.flushError ??= error;
        })
        .finally(() => {
          this.flushing = undefined;
        });
    }
  }

  /**
   * Closes the file and answers its path; with `sync` (the default) its bytes reach stable
   * storage first. An engine that uploads the file elsewhere needs no sync.
   */
  async seal({ sync = true }: { sync?: boolean } = {}): Promise<string> {
    const handle = this.handle!;
    this.handle = undefined;
    try {
      await this.flushing;
      if (this.flushError !== undefined) throw this.flushError;
      if (sync) await handle.datasync();
    } finally {
      await handle.close();
    }
    return this.path;
  }

  async discard(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await this.flushing;
    await handle?.close().catch(() => {});
    await fs.rm(this.path, { force: true });
  }
}

export class MemoryBlob implements StagedBlob {
  readonly digest: Buffer;
  readonly sizeBytes: number;
  readonly chunks: Buffer[];
  readonly blobId: string;
  constructor(
    digest: Buffer,
    sizeBytes: number,
    chunks: Buffer[],
  ) {
    this.digest = digest;
    this.sizeBytes = sizeBytes;
    this.chunks = chunks;
    this.blobId = digest.toString('base64url');
  }
  async discard(): Promise<void> {
    this.chunks.length = 0;
  }
}

export class SpilledBlob implements StagedBlob {
  readonly digest: Buffer;
  readonly sizeBytes: number;
  readonly spill: SpillFile;
  readonly blobId: string;
  constructor(
    digest: Buffer,
    sizeBytes: number,
    spill: SpillFile,
  ) {
    this.digest = digest;
    this.sizeBytes = sizeBytes;
    this.spill = spill;
    this.blobId = digest.toString('base64url');
  }
  discard(): Promise<void> {
    return this.spill.discard();
  }
}


/**
 * Persists staged blobs the way both engines do: the small ones together through the group
 * commit, each large one on its own; answers their locations in the order given.
 */
export async function persistStaged(
  blobs: readonly StagedBlob[],
  packSmall: (inline: MemoryBlob[]) => Promise<BlobLocation[]>,
  persistLarge: (spilled: SpilledBlob) => Promise<BlobLocation>,
): Promise<BlobLocation[]> {
  const inline = blobs.filter((b): b is MemoryBlob => b instanceof MemoryBlob);
  const spilled = blobs.filter((b): b is SpilledBlob => b instanceof SpilledBlob);
  if (inline.length + spilled.length !== blobs.length) throw new Error('blob was not staged by this store');
  const [inlineLocations, spilledLocations] = await Promise.all([inline.length > 0 ? packSmall(inline) : Promise.resolve([]), Promise.all(spilled.map(persistLarge))]);
  const byBlob = new Map<StagedBlob, BlobLocation>();
  inline.forEach((b, i) => byBlob.set(b, inlineLocations[i]!));
  spilled.forEach((b, i) => byBlob.set(b, spilledLocations[i]!));
  return blobs.map((b) => byBlob.get(b)!);
}
