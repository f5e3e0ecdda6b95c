import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalQuiltStore } from '../src/storage/local-quilt-store.ts';

/**
 * Small-file writes: the quilt store (100 concurrent writers, group commit) against raw
 * baselines measured in the same run on the same disk: one file per blob with fsync, appending
 * to a pack with one fsync per 100 blobs, and the same pack with each blob's SHA-256 taken first,
 * as a store that names blobs by their content must.
 */
export interface StoreBenchResult {
  blobs: number;
  filePerBlobFsync: number;
  packBatchedFsync: number;
  /** The pack, hashing each blob before its batch is written: the floor for a content-addressed store. */
  packHashedBatchedFsync: number;
  quiltStore: number;
}

const CONCURRENCY = 100;

function makeBlobs(count: number): Buffer[] {
  return Array.from({ length: count }, () => randomBytes(4096 + Math.floor(Math.random() * 60 * 1024)));
}

async function filePerBlob(dir: string, blobs: Buffer[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < blobs.length) {
        const i = next++;
        const handle = await fs.open(path.join(dir, `${i}.blob`), 'wx');
        await handle.write(blobs[i]!);
        await handle.datasync();
        await handle.close();
      }
    }),
  );
  return blobs.length / ((performance.now() - started) / 1000);
}

/** The raw pack: the blobs appended to one open file, one data sync per 100; answers files/s. */
export async function packBatched(dir: string, blobs: Buffer[]): Promise<number> {
  const started = performance.now();
  const handle = await fs.open(path.join(dir, 'pack'), 'wx');
  for (let i = 0; i < blobs.length; i += 100) {
    await handle.writev(blobs.slice(i, i + 100));
    await handle.datasync();
  }
  await handle.close();
  return blobs.length / ((performance.now() - started) / 1000);
}

async function packHashedBatched(dir: string, blobs: Buffer[]): Promise<number> {
  const started = performance.now();
  const handle = await fs.open(path.join(dir, 'pack'), 'wx');
  for (let i = 0; i < blobs.length; i += 100) {
    const batch = blobs.slice(i, i + 100);
    for (const blob of batch) createHash('sha256').update(blob).digest();
    await handle.writev(batch);
    await handle.datasync();
  }
  await handle.close();
  return blobs.length / ((performance.now() - started) / 1000);
}

async function quiltStore(dir: string, blobs: Buffer[]): Promise<number> {
  const store = await LocalQuiltStore.open({ dir, batchWindowMs: 2, batchMaxBytes: 16 * 1024 * 1024, inlineMaxBytes: 1024 * 1024 });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < blobs.length) {
        const blob = blobs[next++]!;
        const staged = await store.stage([blob], { maxBytes: Infinity });
        await store.persist([staged]);
      }
    }),
  );
  const rate = blobs.length / ((performance.now() - started) / 1000);
  await store.close();
  return rate;
}

export async function benchStore(count: number): Promise<StoreBenchResult> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-'));
  try {
    const blobs = makeBlobs(count);
    const run = async <T>(name: string, fn: (dir: string) => Promise<T>) => {
      const dir = path.join(root, `${name}-${Math.random().toString(16).slice(2)}`);
      await fs.mkdir(dir);
      const result = await fn(dir);
      await fs.rm(dir, { recursive: true, force: true });
      return result;
    };
    return {
      blobs: count,
      filePerBlobFsync: await run('files', (dir) => filePerBlob(dir, blobs)),
      packBatchedFsync: await run('pack', (dir) => packBatched(dir, blobs)),
      packHashedBatchedFsync: await run('hashed-pack', (dir) => packHashedBatched(dir, blobs)),
      quiltStore: await run('quilt', (dir) => quiltStore(dir, blobs)),
    };
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
