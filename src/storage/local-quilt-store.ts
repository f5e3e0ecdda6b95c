import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { QuiltHandles } from './quilt-handles.ts';
import { BlobMissingError, BlobTooLargeError, type BlobLocation, type BlobStore, type ByteRange, type StagedBlob } from './blob-store.ts';
import {
  HEADER_BYTES,
  decodePatchId,
  encodeFooter,
  encodeHeader,
  encodeIndex,
  encodePatchId,
  quiltIdOf,
  readQuiltIndex,
  type PatchEntry,
} from './quilt-format.ts';

export interface LocalQuiltStoreOptions {
  /** Root of the store; quilts live in `<dir>/<2 chars>/<quiltId>.quilt`, staging in `<dir>/tmp`. */
  dir: string;
  batchWindowMs: number;
  batchMaxBytes: number;
  inlineMaxBytes: number;
  /** Quilts written at the same time (default 1). */
  maxConcurrentSeals?: number;
  /** Told about every sealed quilt (for metrics). */
  onSeal?: (seal: { patches: number; bytes: number; seconds: number }) => void;
}


/** Bytes of a large upload gathered before each write to its spill file. */
const SPILL_WRITE_BYTES = 1024 * 1024;
/** Temp files untouched for this long belong to no live upload (a crash left them). */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** Reads up to this size are one positioned read into memory; larger ones stream. */
const SMALL_READ_BYTES = 1024 * 1024;
const OPEN_QUILTS = 256;

export class LocalQuiltStore implements BlobStore {
  private readonly tmpDir: string;
  private readonly knownDirs = new Set<string>();
  private readonly writer: GroupCommitWriter;
  private readonly handles = new QuiltHandles(OPEN_QUILTS);

  private constructor(private readonly options: LocalQuiltStoreOptions) {
    this.tmpDir = path.join(options.dir, 'tmp');
    this.writer = new GroupCommitWriter(options, (buffers, entries) => this.writeQuilt(buffers, entries));
  }

  static async open(options: LocalQuiltStoreOptions): Promise<LocalQuiltStore> {
    const store = new LocalQuiltStore(options);
    await fs.mkdir(store.tmpDir, { recursive: true });
    await store.removeStaleTemps();
    return store;
  }

  async stage(source: AsyncIterable<Buffer> | Iterable<Buffer>, { maxBytes }: { maxBytes: number }): Promise<StagedBlob> {
    const hash = createHash('sha256');
    let size = 0;
    let chunks: Buffer[] = [];
    let spill: SpillFile | undefined;
    // A large file arrives in the parser's small chunks: they go to disk a megabyte at a time
    // (one writev), not one write each.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    try {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > maxBytes) throw new BlobTooLargeError(maxBytes);
        hash.update(chunk);
        if (spill) {
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes >= SPILL_WRITE_BYTES) {
            await spill.append(pending);
            pending = [];
            pendingBytes = 0;
          }
        } else if (size > this.options.inlineMaxBytes) {
          spill = await SpillFile.create(this.tmpDir);
          await spill.append([...chunks, chunk]);
          chunks = [];
        } else {
          chunks.push(chunk);
        }
      }
      if (spill && pending.length > 0) await spill.append(pending);
    } catch (error) {
      await spill?.discard();
      throw error;
    }
    const digest = hash.digest();
    return spill ? new SpilledBlob(digest, size, spill) : new MemoryBlob(digest, size, chunks);
  }

  async persist(blobs: readonly StagedBlob[]): Promise<BlobLocation[]> {
    const inline = blobs.filter((b): b is MemoryBlob => b instanceof MemoryBlob);
    const spilled = blobs.filter((b): b is SpilledBlob => b instanceof SpilledBlob);
    if (inline.length + spilled.length !== blobs.length) throw new Error('blob was not staged by this store');
    const [inlineLocations, spilledLocations] = await Promise.all([
      inline.length > 0 ? this.writer.enqueue(inline) : Promise.resolve([]),
      Promise.all(spilled.map((b) => this.sealSpill(b))),
    ]);
    const byBlob = new Map<StagedBlob, BlobLocation>();
    inline.forEach((b, i) => byBlob.set(b, inlineLocations[i]!));
    spilled.forEach((b, i) => byBlob.set(b, spilledLocations[i]!));
    return blobs.map((b) => byBlob.get(b)!);
  }

  async read(quiltPatchId: string, range?: ByteRange): Promise<Readable> {
    const locator = decodePatchId(quiltPatchId);
    if (!locator) throw new BlobMissingError(quiltPatchId);
    const start = locator.offset + (range?.start ?? 0);
    const end = locator.offset + (range ? range.end : locator.length - 1);
    if (end < start) return Readable.from([]);
    if (end - start + 1 <= SMALL_READ_BYTES) return this.readSmall(locator.quiltId, quiltPatchId, start, end - start + 1);
    let handle: FileHandle;
    try {
      handle = await fs.open(this.quiltPath(locator.quiltId), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobMissingError(quiltPatchId);
      throw error;
    }
    // Large reads in 1 MiB chunks: the 64 KiB default costs a third of a download's throughput.
    return handle.createReadStream({ start, end, autoClose: true, highWaterMark: 1024 * 1024 });
  }

  private async readSmall(quiltId: string, quiltPatchId: string, position: number, length: number): Promise<Readable> {
    const file = this.quiltPath(quiltId);
    let handle: FileHandle;
    try {
      handle = await this.handles.get(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobMissingError(quiltPatchId);
      throw error;
    }
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    if (bytesRead !== length) throw new BlobMissingError(quiltPatchId);
    return Readable.from([buffer]);
  }

  /** A quilt was removed from disk (gc): drop its cached handle so its space is freed. */
  forget(quiltId: string): void {
    this.handles.forget(this.quiltPath(quiltId));
  }

  async delete(quiltPatchId: string): Promise<void> {
    const locator = decodePatchId(quiltPatchId);
    if (!locator) return;
    const file = this.quiltPath(locator.quiltId);
    let patches: PatchEntry[];
    try {
      const handle = await fs.open(file, 'r');
      try {
        patches = await readQuiltIndex(handle);
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    // A quilt of one patch goes at once. Shared quilts are immutable: their dead patches are
    // reclaimed by rewriting the quilt (garbage collection), never by editing it in place.
    if (patches.length === 1) {
      this.handles.forget(file);
      await fs.rm(file, { force: true });
      await fsyncDir(path.dirname(file));
    }
  }

  async check(): Promise<void> {
    await fs.access(this.tmpDir, fs.constants.W_OK | fs.constants.R_OK);
  }

  async close(): Promise<void> {
    await this.writer.drain();
    await this.handles.closeAll();
  }

  quiltPath(quiltId: string): string {
    return path.join(this.options.dir, quiltId.slice(0, 2), `${quiltId}.quilt`);
  }

  private async sealSpill(blob: SpilledBlob): Promise<BlobLocation> {
    const started = process.hrtime.bigint();
    const entries = [{ hash: blob.digest, offset: HEADER_BYTES, length: blob.sizeBytes }];
    const index = encodeIndex(entries);
    await blob.spill.append([index, encodeFooter(HEADER_BYTES + blob.sizeBytes, 1)]);
    const quiltHash = quiltIdOf(blob.spill.header, index);
    await this.publish(await blob.spill.seal(), quiltHash);
    this.options.onSeal?.({ patches: 1, bytes: blob.sizeBytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    return locationOf(quiltHash, entries[0]!);
  }

  /** Writes one quilt: temp file, data sync, rename into place, directory sync. */
  private async writeQuilt(patches: readonly Buffer[][], entries: readonly PatchEntry[]): Promise<Buffer> {
    const header = encodeHeader(randomBytes(8));
    const index = encodeIndex(entries);
    const end = entries.length > 0 ? entries[entries.length - 1]!.offset + entries[entries.length - 1]!.length : HEADER_BYTES;
    const spill = await SpillFile.create(this.tmpDir, header);
    try {
      await spill.append([...patches.flat(), index, encodeFooter(end, entries.length)]);
    } catch (error) {
      await spill.discard();
      throw error;
    }
    const quiltHash = quiltIdOf(header, index);
    await this.publish(await spill.seal(), quiltHash);
    return quiltHash;
  }

  private async publish(tempPath: string, quiltHash: Buffer): Promise<void> {
    const target = this.quiltPath(quiltHash.toString('base64url'));
    const dir = path.dirname(target);
    try {
      if (!this.knownDirs.has(dir)) {
        const created = await fs.mkdir(dir, { recursive: true });
        if (created) await fsyncDir(this.options.dir);
        this.knownDirs.add(dir);
      }
      await fs.rename(tempPath, target);
    } catch (error) {
      await fs.rm(tempPath, { force: true });
      throw error;
    }
    await fsyncDir(dir);
  }

  private async removeStaleTemps(): Promise<void> {
    const now = Date.now();
    for (const name of await fs.readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (stat && now - stat.mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true });
    }
  }
}

function locationOf(quiltHash: Buffer, entry: PatchEntry): BlobLocation {
  return {
    blobId: entry.hash.toString('base64url'),
    sizeBytes: entry.length,
    quiltId: quiltHash.toString('base64url'),
    quiltPatchId: encodePatchId(quiltHash, entry.offset, entry.length),
  };
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A temp file in the staging directory that becomes a quilt once sealed. */
class SpillFile {
  private constructor(
    readonly path: string,
    readonly header: Buffer,
    private handle: FileHandle | undefined,
  ) {}

  static async create(tmpDir: string, header = encodeHeader(randomBytes(8))): Promise<SpillFile> {
    const file = path.join(tmpDir, `${randomBytes(12).toString('hex')}.part`);
    const handle = await fs.open(file, 'wx');
    const spill = new SpillFile(file, header, handle);
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
    }
  }

  /** Flushes the bytes to stable storage and closes the file; answers its path. */
  async seal(): Promise<string> {
    const handle = this.handle!;
    this.handle = undefined;
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
    return this.path;
  }

  async discard(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => {});
    await fs.rm(this.path, { force: true });
  }
}

class MemoryBlob implements StagedBlob {
  readonly blobId: string;
  constructor(
    readonly digest: Buffer,
    readonly sizeBytes: number,
    readonly chunks: Buffer[],
  ) {
    this.blobId = digest.toString('base64url');
  }
  async discard(): Promise<void> {
    this.chunks.length = 0;
  }
}

class SpilledBlob implements StagedBlob {
  readonly blobId: string;
  constructor(
    readonly digest: Buffer,
    readonly sizeBytes: number,
    readonly spill: SpillFile,
  ) {
    this.blobId = digest.toString('base64url');
  }
  discard(): Promise<void> {
    return this.spill.discard();
  }
}

interface PendingGroup {
  blobs: readonly MemoryBlob[];
  bytes: number;
  resolve(locations: BlobLocation[]): void;
  reject(error: unknown): void;
}

/**
 * Group commit: small blobs that arrive close together are written into one quilt with one
 * data sync. Blobs wait at most the window for company; a batch is sealed at once when it reaches
 * the size cap. Up to `maxConcurrentSeals` quilts are written at a time, so hashing and receiving
 * the next files overlaps the sync of the previous ones. The blobs of one request (one group)
 * always share a quilt.
 */
class GroupCommitWriter {
  private queue: PendingGroup[] = [];
  private queuedBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The oldest queued blob has waited its window (or the cap was hit): seal when a slot frees. */
  private due = false;
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly options: Pick<LocalQuiltStoreOptions, 'batchWindowMs' | 'batchMaxBytes' | 'maxConcurrentSeals' | 'onSeal'>,
    private readonly write: (patches: readonly Buffer[][], entries: readonly PatchEntry[]) => Promise<Buffer>,
  ) {}

  enqueue(blobs: readonly MemoryBlob[]): Promise<BlobLocation[]> {
    return new Promise((resolve, reject) => {
      const bytes = blobs.reduce((n, b) => n + b.sizeBytes, 0);
      this.queue.push({ blobs, bytes, resolve, reject });
      this.queuedBytes += bytes;
      this.schedule();
    });
  }

  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.inflight.size > 0) {
      this.due = true;
      this.schedule();
      await Promise.all(this.inflight);
    }
  }

  private schedule(): void {
    if (this.queue.length === 0) return;
    const ready = this.due || this.queuedBytes >= this.options.batchMaxBytes || this.options.batchWindowMs === 0;
    if (!ready) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.due = true;
        this.schedule();
      }, this.options.batchWindowMs);
      return;
    }
    while (this.queue.length > 0 && this.inflight.size < (this.options.maxConcurrentSeals ?? 1)) this.sealNext();
  }

  private sealNext(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.takeBatch();
    // What stays queued was there when the batch was cut: it has waited long enough too.
    this.due = this.queue.length > 0;
    const sealing: Promise<void> = this.writeBatch(batch)
      .then(
        (locations) => batch.forEach((group, i) => group.resolve(locations[i]!)),
        (error: unknown) => batch.forEach((group) => group.reject(error)),
      )
      .finally(() => {
        this.inflight.delete(sealing);
        this.schedule();
      });
    this.inflight.add(sealing);
  }

  private takeBatch(): PendingGroup[] {
    const batch: PendingGroup[] = [];
    let bytes = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      if (batch.length > 0 && bytes + next.bytes > this.options.batchMaxBytes) break;
      batch.push(this.queue.shift()!);
      bytes += next.bytes;
    }
    this.queuedBytes -= bytes;
    return batch;
  }

  private async writeBatch(batch: readonly PendingGroup[]): Promise<BlobLocation[][]> {
    const started = process.hrtime.bigint();
    const entries: PatchEntry[] = [];
    const patches: Buffer[][] = [];
    const entryOf = new Map<string, PatchEntry>();
    let offset = HEADER_BYTES;
    for (const group of batch) {
      for (const blob of group.blobs) {
        if (entryOf.has(blob.blobId)) continue; // same bytes twice in one batch: store once
        const entry = { hash: blob.digest, offset, length: blob.sizeBytes };
        entryOf.set(blob.blobId, entry);
        entries.push(entry);
        patches.push(blob.chunks);
        offset += blob.sizeBytes;
      }
    }
    const quiltHash = await this.write(patches, entries);
    this.options.onSeal?.({ patches: entries.length, bytes: offset - HEADER_BYTES, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    return batch.map((group) => group.blobs.map((blob) => locationOf(quiltHash, entryOf.get(blob.blobId)!)));
  }
}
