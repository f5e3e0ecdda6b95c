import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { HotPatches, SMALL_PATCH_BYTES } from './hot-patches.ts';
import { QuiltHandles } from './quilt-handles.ts';
import { GroupCommitWriter, inOwnFormat, locationOf, type GroupCommitOptions } from './group-commit-writer.ts';
import { persistStaged, removeStaleTemps, SpillFile, stageBlob, type SpilledBlob } from './staging.ts';
import type { HashThreads } from './hash-threads.ts';
import { BlobMissingError, type BlobLocation, type BlobStore, type ByteRange, type StagedBlob } from './blob-store.ts';
import {
  HEADER_BYTES,
  decodePatchId,
  encodeFooter,
  encodeHeader,
  encodeIndex,
  patchSpan,
  quiltIdOf,
  readQuiltIndex,
  type PatchEntry,
} from './quilt-format.ts';

export interface LocalQuiltStoreOptions extends GroupCommitOptions {
  /** Root of the store; quilts live in `<dir>/<2 chars>/<quiltId>.quilt`, staging in `<dir>/tmp`. */
  dir: string;
  inlineMaxBytes: number;
  /** Hash large uploads off the event loop (TESSERA_HASH_THREADS); closed with the store. */
  hashThreads?: HashThreads;
  /**
   * Quilt files kept open for reads (TESSERA_OPEN_QUILT_FILES; 256 when not given). Reads spread
   * over more quilts than this open and close a file each time, through the thread pool.
   */
  openQuiltFiles?: number;
  /** Memory for small patches read lately (TESSERA_READ_CACHE_BYTES; 0 or absent: none). */
  readCacheBytes?: number;
  /** Told of every read the read cache could answer, and whether it did (metrics). */
  onReadCacheLookup?: (hit: boolean) => void;
}

const OPEN_QUILT_FILES = 256;

export class LocalQuiltStore implements BlobStore {
  private readonly options: LocalQuiltStoreOptions;
  readonly kind = 'local-quilt';
  private readonly tmpDir: string;
  private readonly knownDirs = new Set<string>();
  private readonly writer: GroupCommitWriter;
  private readonly handles: QuiltHandles;
  private readonly hot: HotPatches | undefined;

  private constructor(options: LocalQuiltStoreOptions) {
    this.options = options;
    this.tmpDir = path.join(options.dir, 'tmp');
    this.handles = new QuiltHandles(options.openQuiltFiles ?? OPEN_QUILT_FILES);
    this.hot = options.readCacheBytes ? new HotPatches(options.readCacheBytes, options.onReadCacheLookup) : undefined;
    this.writer = new GroupCommitWriter(options, inOwnFormat((buffers, entries) => this.writeQuilt(buffers, entries)));
  }

  static async open(options: LocalQuiltStoreOptions): Promise<LocalQuiltStore> {
    const store = new LocalQuiltStore(options);
    await fs.mkdir(store.tmpDir, { recursive: true });
    await removeStaleTemps(store.tmpDir);
    return store;
  }

  stage(source: AsyncIterable<Buffer> | Iterable<Buffer>, { maxBytes }: { maxBytes: number }): Promise<StagedBlob> {
    return stageBlob(source, { maxBytes, inlineMaxBytes: this.options.inlineMaxBytes, tmpDir: this.tmpDir, durable: true, hashThreads: this.options.hashThreads });
  }

  persist(blobs: readonly StagedBlob[]): Promise<BlobLocation[]> {
    return persistStaged(blobs, (inline) => this.writer.enqueue(inline), (spilled) => this.sealSpill(spilled));
  }

  async readBuffer(quiltPatchId: string, range?: ByteRange): Promise<Buffer | undefined> {
    const { quiltId, start, end } = patchSpan(quiltPatchId, range);
    if (end < start) return Buffer.alloc(0);
    if (end - start + 1 > SMALL_PATCH_BYTES) return undefined;
    const kept = await this.hot?.readThrough(quiltPatchId, range, (position, length) => this.readSmall(quiltId, quiltPatchId, position, length));
    return kept ?? this.readSmall(quiltId, quiltPatchId, start, end - start + 1);
  }

  /** What the read cache holds now (tests, metrics). */
  readCacheUse(): { entries: number; bytes: number } {
    return { entries: this.hot?.size ?? 0, bytes: this.hot?.bytes ?? 0 };
  }

  async read(quiltPatchId: string, range?: ByteRange): Promise<Readable> {
    const { quiltId, start, end } = patchSpan(quiltPatchId, range);
    if (end < start) return Readable.from([]);
    if (end - start + 1 <= SMALL_PATCH_BYTES) return Readable.from([await this.readSmall(quiltId, quiltPatchId, start, end - start + 1)]);
    let handle: FileHandle;
    try {
      handle = await fs.open(this.quiltPath(quiltId), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobMissingError(quiltPatchId);
      throw error;
    }
    // Large reads in 1 MiB chunks: the 64 KiB default costs a third of a download's throughput.
    return handle.createReadStream({ start, end, autoClose: true, highWaterMark: 1024 * 1024 });
  }

  private async readSmall(quiltId: string, quiltPatchId: string, position: number, length: number): Promise<Buffer> {
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
    return buffer;
  }

  /** A quilt was removed from disk (gc): drop its cached handle so its space is freed. */
  forget(quiltId: string): void {
    this.handles.forget(this.quiltPath(quiltId));
  }

  async delete(quiltPatchId: string): Promise<void> {
    this.hot?.delete(quiltPatchId);
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
    await this.options.hashThreads?.close();
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
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

