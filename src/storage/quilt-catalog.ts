import type { PatchEntry } from './quilt-format.ts';

export interface QuiltFile {
  quiltId: string;
  /** Where it lives, for messages: a file path or an object key. */
  path: string;
  sizeBytes: number;
  modifiedAt: number;
}

export interface TempFile {
  name: string;
  sizeBytes: number;
  modifiedAt: number;
}

/**
 * An engine's quilts as an operator sees them: what `tessera verify` and `tessera gc` walk. The
 * stores only ever write whole quilts; a catalog reads and removes them. A quilt that is not
 * there makes `index` and `hashPatches` throw an error whose `code` is `ENOENT`.
 */
export interface QuiltCatalog {
  /** Every sealed quilt. */
  quilts(): AsyncIterable<QuiltFile>;
  /** Size and age of one quilt, or undefined if it is not (or no longer) there. */
  stat(quiltId: string): Promise<{ sizeBytes: number; modifiedAt: number } | undefined>;
  /** The quilt's own index, after checking that its name is the hash of its header and index. */
  index(quiltId: string): Promise<PatchEntry[]>;
  /** SHA-256 of each patch's bytes as stored now, in the order given. */
  hashPatches(quiltId: string, entries: readonly PatchEntry[]): Promise<Buffer[]>;
  remove(quiltId: string): Promise<void>;
  /** Leftovers of uploads in flight or cut short by a crash (temp files, unfinished multipart uploads). */
  tempFiles(): Promise<TempFile[]>;
  removeTemp(name: string): Promise<void>;
  /**
   * For an engine whose quilts cannot be listed (Walrus): checks one blob by reading its patch
   * back, answering what is wrong, if anything ("its patch …"; verify says whose). Verify then
   * checks rows this way instead.
   */
  checkBlob?(row: { blob_id: string; quilt_patch_id: string; size_bytes: number }): Promise<string | undefined>;
}

export function quiltMissing(quiltId: string): Error {
  return Object.assign(new Error(`quilt ${quiltId} does not exist`), { code: 'ENOENT' });
}
