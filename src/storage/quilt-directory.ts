import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { QuiltCatalog, QuiltFile, TempFile } from './quilt-catalog.ts';
import { computeQuiltId, readQuiltIndex, type PatchEntry } from './quilt-format.ts';


/**
 * The local quilt store's files as an operator sees them: what `tessera verify` and `tessera gc`
 * walk. The store itself only ever writes whole quilts; this reads and removes them. Errors of a
 * missing quilt are the file system's ENOENT.
 */
export class QuiltDirectory implements QuiltCatalog {
  readonly dir: string;
  private readonly quiltPath: (quiltId: string) => string;
  /** Told after a quilt is removed (the store drops its cached handle). */
  private readonly onRemove: (quiltId: string) => void;
  constructor(
    dir: string,
    quiltPath: (quiltId: string) => string,
    onRemove: (quiltId: string) => void = () => {},
  ) {
    this.dir = dir;
    this.quiltPath = quiltPath;
    this.onRemove = onRemove;
  }

  get tmpDir(): string {
    return path.join(this.dir, 'tmp');
  }

  /** Every sealed quilt on disk. */
  async *quilts(): AsyncGenerator<QuiltFile> {
    for (const shard of (await fs.readdir(this.dir, { withFileTypes: true })).filter((d) => d.isDirectory() && d.name !== 'tmp')) {
      for (const name of await fs.readdir(path.join(this.dir, shard.name))) {
        if (!name.endsWith('.quilt')) continue;
        const file = path.join(this.dir, shard.name, name);
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat) yield { quiltId: name.slice(0, -'.quilt'.length), path: file, sizeBytes: stat.size, modifiedAt: stat.mtimeMs };
      }
    }
  }

  /** Size and age of one quilt, or undefined if it is not (or no longer) there. */
  async stat(quiltId: string): Promise<{ sizeBytes: number; modifiedAt: number } | undefined> {
    const stat = await fs.stat(this.quiltPath(quiltId)).catch(() => undefined);
    return stat ? { sizeBytes: stat.size, modifiedAt: stat.mtimeMs } : undefined;
  }

  /** The quilt's own index, after checking that its name is the hash of its header and index. */
  async index(quiltId: string): Promise<PatchEntry[]> {
    const handle = await fs.open(this.quiltPath(quiltId), 'r');
    try {
      const computed = await computeQuiltId(handle);
      if (computed !== quiltId) throw new Error(`its header and index hash to ${computed}`);
      return await readQuiltIndex(handle);
    } finally {
      await handle.close();
    }
  }

  async hashPatches(quiltId: string, entries: readonly PatchEntry[]): Promise<Buffer[]> {
    const hashes: Buffer[] = [];
    for (const entry of entries) hashes.push(await this.hashPatch(quiltId, entry));
    return hashes;
  }

  /** SHA-256 of a patch's bytes as they are on disk now. */
  private async hashPatch(quiltId: string, entry: PatchEntry): Promise<Buffer> {
    const handle = await fs.open(this.quiltPath(quiltId), 'r');
    try {
      const hash = createHash('sha256');
      for await (const chunk of handle.createReadStream({ start: entry.offset, end: entry.offset + entry.length - 1, autoClose: false })) hash.update(chunk as Buffer);
      return hash.digest();
    } finally {
      await handle.close();
    }
  }

  async remove(quiltId: string): Promise<void> {
    const file = this.quiltPath(quiltId);
    await fs.rm(file, { force: true });
    this.onRemove(quiltId);
    const dir = await fs.open(path.dirname(file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }

  /** Files left in the staging directory (uploads in flight, or cut short by a crash). */
  async tempFiles(): Promise<TempFile[]> {
    const names = await fs.readdir(this.tmpDir).catch(() => [] as string[]);
    const files = await Promise.all(
      names.map(async (name) => {
        const stat = await fs.stat(path.join(this.tmpDir, name)).catch(() => undefined);
        return stat ? { name, sizeBytes: stat.size, modifiedAt: stat.mtimeMs } : undefined;
      }),
    );
    return files.filter((f) => f !== undefined);
  }

  async removeTemp(name: string): Promise<void> {
    await fs.rm(path.join(this.tmpDir, path.basename(name)), { force: true });
  }
}
