import { randomBytes } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * The Walrus engine's read-through cache: verified patches as files in a directory of this
 * process's own, bounded by bytes; the least recently used go first. Hot files and thumbnails are
 * then read from local disk instead of crossing the network, and a Range is served from the file.
 * A patch is filled into a temp file and renamed in only once it passed its checks, so the cache
 * never holds bytes that were not verified. A patch larger than the whole cache is still served
 * from its file, which is then removed (the open handle keeps it readable until closed).
 */
export class PatchCache {
  private readonly dir: string;
  private readonly maxBytes: number;
  /** Key → size, least recently used first (a Map keeps insertion order). */
  private readonly entries = new Map<string, number>();
  private readonly filling = new Map<string, Promise<void>>();
  private totalBytes = 0;

  private constructor(
    dir: string,
    maxBytes: number,
  ) {
    this.dir = dir;
    this.maxBytes = maxBytes;
  }

  /** Opens the cache, keeping what an earlier run left (oldest first), and removing unfinished fills. */
  static async open(dir: string, maxBytes: number): Promise<PatchCache> {
    await fs.mkdir(dir, { recursive: true });
    const cache = new PatchCache(dir, maxBytes);
    const found: Array<{ key: string; size: number; at: number }> = [];
    for (const name of await fs.readdir(dir)) {
      const file = path.join(dir, name);
      if (name.endsWith('.part')) {
        await fs.rm(file, { force: true });
        continue;
      }
      const stat = await fs.stat(file).catch(() => undefined);
      if (stat?.isFile()) found.push({ key: name, size: stat.size, at: stat.mtimeMs });
    }
    for (const entry of found.sort((a, b) => a.at - b.at)) cache.add(entry.key, entry.size);
    await cache.evict();
    return cache;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /**
   * An open handle on the key's verified bytes: from the cache, or filled by `fill` (which writes
   * the bytes to the path it is given and throws if they fail their checks). Concurrent misses of
   * one key fill it once.
   */
  async open(key: string, fill: (tempFile: string) => Promise<void>): Promise<{ handle: FileHandle; sizeBytes: number; hit: boolean }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const size = this.entries.get(key);
      if (size !== undefined) {
        try {
          const handle = await fs.open(this.fileOf(key), 'r');
          this.touch(key);
          return { handle, sizeBytes: size, hit: attempt === 0 };
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          this.drop(key); // evicted between the look-up and the open
        }
      }
      const filling = this.filling.get(key);
      if (filling) {
        await filling;
        continue;
      }
      const filled = this.fill(key, fill).finally(() => this.filling.delete(key));
      this.filling.set(key, filled.then(
        () => {},
        () => {},
      ));
      return { ...(await filled), hit: false };
    }
    throw new Error(`patch ${key} left the cache as soon as it was filled`);
  }

  /** Forgets a key (its file deleted), e.g. when its blob is deleted. */
  async remove(key: string): Promise<void> {
    if (this.entries.has(key)) this.drop(key);
    await fs.rm(this.fileOf(key), { force: true });
  }

  /** Fills the key; the handle, opened before anything can evict the file, is the filler's. */
  private async fill(key: string, fill: (tempFile: string) => Promise<void>): Promise<{ handle: FileHandle; sizeBytes: number }> {
    const temp = path.join(this.dir, `${key}.${randomBytes(6).toString('hex')}.part`);
    let handle: FileHandle | undefined;
    try {
      await fill(temp);
      handle = await fs.open(temp, 'r');
      const { size } = await handle.stat();
      await fs.rename(temp, this.fileOf(key));
      this.add(key, size);
      await this.evict();
      return { handle, sizeBytes: size };
    } catch (error) {
      await handle?.close().catch(() => {});
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  private add(key: string, size: number): void {
    if (this.entries.has(key)) this.drop(key);
    this.entries.set(key, size);
    this.totalBytes += size;
  }

  private touch(key: string): void {
    const size = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, size);
  }

  private drop(key: string): void {
    this.totalBytes -= this.entries.get(key) ?? 0;
    this.entries.delete(key);
  }

  private async evict(): Promise<void> {
    while (this.totalBytes > this.maxBytes && this.entries.size > 0) {
      const [oldest] = this.entries.keys();
      this.drop(oldest!);
      await fs.rm(this.fileOf(oldest!), { force: true });
    }
  }

  private fileOf(key: string): string {
    return path.join(this.dir, key);
  }
}
