import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { BlobMissingError, type ByteRange } from './blob-store.ts';

/**
 * On-disk layout of a quilt, an immutable pack of blobs:
 *
 *   header   16 B   "TSQUILT1" + 8 random bytes (two quilts never share an id)
 *   patches         the blobs' bytes, back to back
 *   index    48 B per patch: SHA-256 (32) + offset u64 + length u64
 *   footer   24 B   index offset u64 + patch count u64 + "TSQEND01"
 *
 * The quiltId is the SHA-256 of header and index, so it is derived from the sealed content.
 * The index makes a quilt self-describing: the metadata could be rebuilt from quilts alone.
 */
export const HEADER_BYTES = 16;
export const INDEX_ENTRY_BYTES = 48;
export const FOOTER_BYTES = 24;
const HEADER_MAGIC = Buffer.from('TSQUILT1');
const FOOTER_MAGIC = Buffer.from('TSQEND01');

export interface PatchEntry {
  /** Raw SHA-256 of the patch's bytes. */
  hash: Buffer;
  offset: number;
  length: number;
}

export function encodeHeader(nonce: Buffer): Buffer {
  return Buffer.concat([HEADER_MAGIC, nonce.subarray(0, 8)]);
}

export function encodeIndex(entries: readonly PatchEntry[]): Buffer {
  const index = Buffer.alloc(entries.length * INDEX_ENTRY_BYTES);
  entries.forEach((entry, i) => {
    const at = i * INDEX_ENTRY_BYTES;
    entry.hash.copy(index, at);
    index.writeBigUInt64BE(BigInt(entry.offset), at + 32);
    index.writeBigUInt64BE(BigInt(entry.length), at + 40);
  });
  return index;
}

export function encodeFooter(indexOffset: number, count: number): Buffer {
  const footer = Buffer.alloc(FOOTER_BYTES);
  footer.writeBigUInt64BE(BigInt(indexOffset), 0);
  footer.writeBigUInt64BE(BigInt(count), 8);
  FOOTER_MAGIC.copy(footer, 16);
  return footer;
}

export function quiltIdOf(header: Buffer, index: Buffer): Buffer {
  return createHash('sha256').update(header).update(index).digest();
}

/** A patch id is the quilt's id plus the patch's offset and length: one positioned read, no lookup. */
export interface PatchLocator {
  quiltId: string;
  offset: number;
  length: number;
}

export function encodePatchId(quiltHash: Buffer, offset: number, length: number): string {
  const raw = Buffer.alloc(48);
  quiltHash.copy(raw, 0);
  raw.writeBigUInt64BE(BigInt(offset), 32);
  raw.writeBigUInt64BE(BigInt(length), 40);
  return raw.toString('base64url');
}

export function decodePatchId(patchId: string): PatchLocator | undefined {
  if (!/^[A-Za-z0-9_-]{64}$/.test(patchId)) return undefined;
  const raw = Buffer.from(patchId, 'base64url');
  if (raw.length !== 48) return undefined;
  const offset = Number(raw.readBigUInt64BE(32));
  const length = Number(raw.readBigUInt64BE(40));
  if (!Number.isSafeInteger(offset + length)) return undefined;
  return { quiltId: raw.subarray(0, 32).toString('base64url'), offset, length };
}

/** Where a quilt's index starts and how many patches it holds, from its footer and size. */
export function parseFooter(footer: Buffer, size: number): { indexOffset: number; count: number } {
  if (size < HEADER_BYTES + FOOTER_BYTES) throw new Error('quilt too short');
  if (footer.length !== FOOTER_BYTES || !footer.subarray(16).equals(FOOTER_MAGIC)) throw new Error('quilt footer magic mismatch');
  const indexOffset = Number(footer.readBigUInt64BE(0));
  const count = Number(footer.readBigUInt64BE(8));
  if (indexOffset + count * INDEX_ENTRY_BYTES + FOOTER_BYTES !== size) throw new Error('quilt index out of bounds');
  return { indexOffset, count };
}

export function parseIndex(index: Buffer, count: number): PatchEntry[] {
  const entries: PatchEntry[] = [];
  for (let i = 0; i < count; i++) {
    const at = i * INDEX_ENTRY_BYTES;
    entries.push({
      hash: Buffer.from(index.subarray(at, at + 32)),
      offset: Number(index.readBigUInt64BE(at + 32)),
      length: Number(index.readBigUInt64BE(at + 40)),
    });
  }
  return entries;
}

/** Bytes a quilt of one patch of this length takes: what tells a blob's own quilt from a shared one. */
export function singlePatchQuiltBytes(length: number): number {
  return HEADER_BYTES + length + INDEX_ENTRY_BYTES + FOOTER_BYTES;
}

/** Reads a sealed quilt's own index: what `verify` and a metadata rebuild stand on. */
export async function readQuiltIndex(handle: FileHandle): Promise<PatchEntry[]> {
  const { size } = await handle.stat();
  if (size < HEADER_BYTES + FOOTER_BYTES) throw new Error('quilt too short');
  const footer = Buffer.alloc(FOOTER_BYTES);
  await handle.read(footer, 0, FOOTER_BYTES, size - FOOTER_BYTES);
  const { indexOffset, count } = parseFooter(footer, size);
  const index = Buffer.alloc(count * INDEX_ENTRY_BYTES);
  if (count > 0) await handle.read(index, 0, index.length, indexOffset);
  return parseIndex(index, count);
}

/** Recomputes a sealed quilt's id from its header and index. */
export async function computeQuiltId(handle: FileHandle): Promise<string> {
  const { size } = await handle.stat();
  const header = Buffer.alloc(HEADER_BYTES);
  await handle.read(header, 0, HEADER_BYTES, 0);
  const entries = await readQuiltIndex(handle);
  const index = Buffer.alloc(entries.length * INDEX_ENTRY_BYTES);
  if (entries.length > 0) await handle.read(index, 0, index.length, size - FOOTER_BYTES - index.length);
  return quiltIdOf(header, index).toString('base64url');
}

/**
 * Where the bytes of a patch (or of a range of it) lie in its quilt: inclusive offsets. `end` is
 * below `start` for an empty patch. An id that is not a patch id is a missing blob.
 */
export function patchSpan(quiltPatchId: string, range?: ByteRange): { quiltId: string; start: number; end: number } {
  const locator = decodePatchId(quiltPatchId);
  if (!locator) throw new BlobMissingError(quiltPatchId);
  const start = locator.offset + (range?.start ?? 0);
  return { quiltId: locator.quiltId, start, end: locator.offset + (range ? range.end : locator.length - 1) };
}
