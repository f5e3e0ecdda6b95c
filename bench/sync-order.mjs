// The syncs of a quilt against a raw pack's one, as primitives: 100 blobs of 34 KiB a batch, 60
// batches a round, 5 rounds, each variant in turn, medians of milliseconds per batch.
//   quilt: what the local store does (temp file, fdatasync, close, rename, fsync of the directory)
//   rename-first: the rename before the data sync (the two syncs then share one journal commit)
//   raw: appending to one open file with one fdatasync
//   node bench/sync-order.mjs   (docs/benchmarks.md, "Fourth pass")
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const root = path.join(os.tmpdir(), `tessera-sync-order-${process.pid}`);
await fs.mkdir(path.join(root, 'tmp'), { recursive: true });
await fs.mkdir(path.join(root, 'quilts'), { recursive: true });
const blobs = Array.from({ length: 100 }, () => randomBytes(34 * 1024));

async function syncDirectory(dir) {
  const handle = await fs.open(dir, 'r');
  await handle.sync();
  await handle.close();
}

let pack;
const variants = {
  async quilt(name) {
    const temp = path.join(root, 'tmp', `${name}.part`);
    const handle = await fs.open(temp, 'wx');
    await handle.writev(blobs);
    await handle.datasync();
    await handle.close();
    await fs.rename(temp, path.join(root, 'quilts', `q${name}`));
    await syncDirectory(path.join(root, 'quilts'));
  },
  async 'rename-first'(name) {
    const temp = path.join(root, 'tmp', `${name}.part`);
    const handle = await fs.open(temp, 'wx');
    await handle.writev(blobs);
    await fs.rename(temp, path.join(root, 'quilts', `r${name}`));
    await handle.datasync();
    await handle.close();
    await syncDirectory(path.join(root, 'quilts'));
  },
  async raw() {
    pack ??= await fs.open(path.join(root, 'pack'), 'a');
    await pack.writev(blobs);
    await pack.datasync();
  },
};

const ROUNDS = 5;
const BATCHES = 60;
const perBatch = {};
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, write] of Object.entries(variants)) {
      const started = performance.now();
      for (let i = 0; i < BATCHES; i++) await write(`${round}-${i}`);
      (perBatch[name] ??= []).push((performance.now() - started) / BATCHES);
    }
  }
} finally {
  await pack?.close();
  await fs.rm(root, { recursive: true, force: true });
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, values] of Object.entries(perBatch)) {
  console.log(`${name.padEnd(13)} ${median(values).toFixed(2)} ms a batch (rounds: ${values.map((v) => v.toFixed(1)).join(', ')}); raw / this ${(median(perBatch.raw) / median(values)).toFixed(2)}x`);
}
