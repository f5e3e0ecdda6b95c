import { HEADER_BYTES, encodePatchId, type PatchEntry } from './quilt-format.ts';
import type { BlobLocation } from './blob-store.ts';
import type { MemoryBlob } from './staging.ts';

export interface GroupCommitOptions {
  batchWindowMs: number;
  batchMaxBytes: number;
  /** Quilts written at the same time (default 1). */
  maxConcurrentSeals?: number;
  /** Patches per quilt at most (Walrus caps a quilt's patches); default: no cap but the bytes. */
  batchMaxPatches?: number;
  /** Told about every sealed quilt (for metrics). */
  onSeal?: (seal: { patches: number; bytes: number; seconds: number }) => void;
}

/** A patch of a batch: `plaintext` if its upload asked for it (only an engine that seals heeds it). */
export interface BatchEntry extends PatchEntry {
  plaintext?: boolean;
}

/** Writes one quilt of these patches durably; answers where each entry now lies. */
export type QuiltWriter = (patches: readonly Buffer[][], entries: readonly BatchEntry[]) => Promise<(entry: BatchEntry) => BlobLocation>;

/** A quilt in Tessera's own format is named by the hash it answers; its patches by offset and length. */
export function inOwnFormat(write: (patches: readonly Buffer[][], entries: readonly PatchEntry[]) => Promise<Buffer>): QuiltWriter {
  return async (patches, entries) => {
    const quiltHash = await write(patches, entries);
    return (entry) => locationOf(quiltHash, entry);
  };
}

export function locationOf(quiltHash: Buffer, entry: PatchEntry): BlobLocation {
  return {
    blobId: entry.hash.toString('base64url'),
    sizeBytes: entry.length,
    quiltId: quiltHash.toString('base64url'),
    quiltPatchId: encodePatchId(quiltHash, entry.offset, entry.length),
  };
}

interface PendingGroup {
  blobs: readonly MemoryBlob[];
  plaintext: boolean;
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
export class GroupCommitWriter {
  private readonly options: GroupCommitOptions;
  private readonly write: QuiltWriter;
  private queue: PendingGroup[] = [];
  private queuedBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The oldest queued blob has waited its window (or the cap was hit): seal when a slot frees. */
  private due = false;
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    options: GroupCommitOptions,
    write: QuiltWriter,
  ) {
    this.options = options;
    this.write = write;
  }

  enqueue(blobs: readonly MemoryBlob[], { plaintext = false }: { plaintext?: boolean } = {}): Promise<BlobLocation[]> {
    const cap = this.options.batchMaxPatches;
    if (cap !== undefined && blobs.length > cap) {
      // More than one quilt holds: the group is split, its parts committed together.
      const parts: Array<Promise<BlobLocation[]>> = [];
      for (let i = 0; i < blobs.length; i += cap) parts.push(this.enqueue(blobs.slice(i, i + cap), { plaintext }));
      return Promise.all(parts).then((located) => located.flat());
    }
    return new Promise((resolve, reject) => {
      const bytes = blobs.reduce((n, b) => n + b.sizeBytes, 0);
      this.queue.push({ blobs, plaintext, bytes, resolve, reject });
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
    let patches = 0;
    const maxPatches = this.options.batchMaxPatches ?? Number.POSITIVE_INFINITY;
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      if (batch.length > 0 && (bytes + next.bytes > this.options.batchMaxBytes || patches + next.blobs.length > maxPatches)) break;
      batch.push(this.queue.shift()!);
      bytes += next.bytes;
      patches += next.blobs.length;
    }
    this.queuedBytes -= bytes;
    return batch;
  }

  private async writeBatch(batch: readonly PendingGroup[]): Promise<BlobLocation[][]> {
    const started = process.hrtime.bigint();
    const entries: BatchEntry[] = [];
    const patches: Buffer[][] = [];
    let offset = HEADER_BYTES;
    // Every blob handed in is a patch of its own, even if other bytes of the batch are the same:
    // the blobs of one batch may be several accounts' (or, for gc, several rows'), and deleting
    // one's file may delete its patch. Deduplication is the caller's, per account (blob rows).
    const located = batch.map(({ blobs, plaintext }) =>
      blobs.map((blob) => {
        const entry = { hash: blob.digest, offset, length: blob.sizeBytes, ...(plaintext ? { plaintext } : {}) };
        entries.push(entry);
        patches.push(blob.chunks);
        offset += blob.sizeBytes;
        return entry;
      }),
    );
    const locate = await this.write(patches, entries);
    this.options.onSeal?.({ patches: entries.length, bytes: offset - HEADER_BYTES, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    return located.map((group) => group.map(locate));
  }
}
