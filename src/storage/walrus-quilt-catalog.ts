import fs from 'node:fs/promises';
import path from 'node:path';
import { quiltMissing, type QuiltCatalog, type QuiltFile, type TempFile } from './quilt-catalog.ts';
import type { PatchEntry } from './quilt-format.ts';
import type { WalrusQuiltStore } from './walrus-quilt-store.ts';

/**
 * The Walrus engine's quilts for `tessera verify` and `tessera gc`. A Walrus network cannot be
 * listed and has no delete, so there are no quilts to walk or remove: verify reads every live
 * blob's patch back from the aggregator instead (checkBlob), and a quilt nothing points at lapses
 * at its end epoch. Temp files are this process's staging files.
 */
export class WalrusQuiltCatalog implements QuiltCatalog {
  private readonly store: WalrusQuiltStore;
  private readonly tmpDir: string;
  constructor(
    store: WalrusQuiltStore,
    tmpDir: string,
  ) {
    this.store = store;
    this.tmpDir = tmpDir;
  }

  async *quilts(): AsyncGenerator<QuiltFile> {}

  async stat(): Promise<undefined> {
    return undefined;
  }

  async index(quiltId: string): Promise<PatchEntry[]> {
    throw quiltMissing(quiltId);
  }

  async hashPatches(quiltId: string): Promise<Buffer[]> {
    throw quiltMissing(quiltId);
  }

  async remove(): Promise<void> {}

  checkBlob(row: { quilt_patch_id: string }): Promise<string | undefined> {
    return this.store.verifyPatch(row.quilt_patch_id);
  }

  async tempFiles(): Promise<TempFile[]> {
    const temps: TempFile[] = [];
    for (const name of await fs.readdir(this.tmpDir).catch(() => [] as string[])) {
      const stat = await fs.stat(path.join(this.tmpDir, name)).catch(() => undefined);
      if (stat) temps.push({ name, sizeBytes: stat.size, modifiedAt: stat.mtimeMs });
    }
    return temps;
  }

  removeTemp(name: string): Promise<void> {
    return fs.rm(path.join(this.tmpDir, path.basename(name)), { force: true });
  }
}
