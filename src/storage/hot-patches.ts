import type { ByteRange } from './blob-store.ts';
import { ByteLru } from '../byte-lru.ts';
import { patchSpan } from './quilt-format.ts';

/**
 * Small patches read lately, kept in memory, bounded by bytes; the least recently read go first.
 *
 * A patch never changes (quilts are immutable and a patch id names its quilt and span), so an
 * entry is never stale; it is dropped when its blob is deleted, to give back the memory at once.
 * A hit spares the positioned read, its hand-off to libuv's thread pool and the wake-up that
 * follows, which were most of a small download's time on the event loop (docs/benchmarks.md,
 * issue 22). Whether the caller may see the bytes is decided before, from the database: the
 * cache is only ever asked for a patch a file row of the caller's points at.
 */
/**
 * The largest patch read into one buffer (one positioned read, or one ranged GET) rather than
 * streamed, and the largest the cache keeps: the engines share it.
 */
export const SMALL_PATCH_BYTES = 1024 * 1024;

export class HotPatches {
  private readonly maxBytes: number;
  /** Larger patches are not kept, so that one cannot push out many small ones. */
  readonly maxEntryBytes: number;
  private readonly entries = new ByteLru<Buffer>();
  private readonly onLookup: ((hit: boolean) => void) | undefined;

  /** `onLookup`: told of every read that could have been answered from memory (metrics). */
  constructor(maxBytes: number, onLookup?: (hit: boolean) => void) {
    this.maxBytes = maxBytes;
    this.maxEntryBytes = Math.min(SMALL_PATCH_BYTES, Math.floor(maxBytes / 16));
    this.onLookup = onLookup;
  }

  get bytes(): number {
    return this.entries.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The bytes of a patch, or of a range of it, from memory; else the whole patch is read with
   * `readSpan` (its place in the quilt) and kept. Undefined when the patch is too large to keep:
   * the caller reads it its own way. The buffer may be shared: callers send it, never write to it.
   */
  async readThrough(quiltPatchId: string, range: ByteRange | undefined, readSpan: (position: number, length: number) => Promise<Buffer>): Promise<Buffer | undefined> {
    const whole = patchSpan(quiltPatchId);
    const length = whole.end - whole.start + 1;
    if (length > this.maxEntryBytes) return undefined;
    let bytes = this.entries.get(quiltPatchId);
    this.onLookup?.(bytes !== undefined);
    if (!bytes) {
      bytes = await readSpan(whole.start, length);
      this.keep(quiltPatchId, bytes);
    }
    if (!range) return bytes;
    const { start, end } = patchSpan(quiltPatchId, range);
    return bytes.subarray(start - whole.start, end - whole.start + 1);
  }

  /** A deleted blob's bytes leave at once (its memory back, its bytes gone from the process). */
  delete(quiltPatchId: string): void {
    this.entries.delete(quiltPatchId);
  }

  private keep(quiltPatchId: string, bytes: Buffer): void {
    // A small Buffer may be a slice of a shared 8 KiB pool: keep a copy of its own, so that what
    // is held is what is counted.
    let own = bytes;
    if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.length) {
      own = Buffer.allocUnsafeSlow(bytes.length);
      bytes.copy(own);
    }
    this.entries.set(quiltPatchId, own, own.length, this.maxBytes);
  }
}
