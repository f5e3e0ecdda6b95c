import fs, { type FileHandle } from 'node:fs/promises';

/**
 * Open quilts, kept for the next read: quilts never change once sealed, so a handle stays valid,
 * and a small patch is then one positioned read instead of an open, a stream and a close.
 * Least recently used handles are closed past `max`.
 */
export class QuiltHandles {
  private readonly max: number;
  private readonly open = new Map<string, Promise<FileHandle>>();

  constructor(max: number) {
    this.max = max;
  }

  async get(file: string): Promise<FileHandle> {
    let handle = this.open.get(file);
    if (handle) {
      this.open.delete(file);
    } else {
      handle = fs.open(file, 'r');
      handle.catch(() => this.open.delete(file));
    }
    this.open.set(file, handle);
    while (this.open.size > this.max) {
      const [oldest, evicted] = this.open.entries().next().value as [string, Promise<FileHandle>];
      this.open.delete(oldest);
      // close() waits for reads already under way on the handle.
      void evicted.then((h) => h.close()).catch(() => {});
    }
    return handle;
  }

  /** A quilt removed from disk: its space is freed once its handle closes. */
  forget(file: string): void {
    const handle = this.open.get(file);
    if (!handle) return;
    this.open.delete(file);
    void handle.then((h) => h.close()).catch(() => {});
  }

  async closeAll(): Promise<void> {
    const handles = [...this.open.values()];
    this.open.clear();
    await Promise.all(handles.map((h) => h.then((x) => x.close()).catch(() => {})));
  }
}
