// The quilt store alone under 100 writers, for several batch windows, each against the raw
// pack baseline of the same minute (docs/benchmarks.md, "store writes"):
//   node bench/store-window.ts [blobs]
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalQuiltStore } from '../src/storage/local-quilt-store.ts';
import { packBatched } from './store.ts';

const count = Number(process.argv[2] ?? 10_000);
const blobs = Array.from({ length: count }, () => randomBytes(4096 + Math.floor(Math.random() * 60 * 1024)));
for (const windowMs of [0, 2, 5, 10]) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-window-'));
  let seals = 0;
  const store = await LocalQuiltStore.open({ dir, batchWindowMs: windowMs, batchMaxBytes: 16 * 1024 * 1024, inlineMaxBytes: 1024 * 1024, onSeal: () => seals++ });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 100 }, async () => {
      while (next < blobs.length) {
        const staged = await store.stage([blobs[next++]!], { maxBytes: Infinity });
        await store.persist([staged]);
      }
    }),
  );
  const rate = count / ((performance.now() - started) / 1000);
  await store.close();
  await fs.rm(dir, { recursive: true, force: true });

  const packDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-pack-'));
  const baseline = await packBatched(packDir, blobs);
  await fs.rm(packDir, { recursive: true, force: true });
  console.log(`window ${windowMs} ms: ${rate.toFixed(0)} files/s in ${seals} quilts (${(count / seals).toFixed(0)} each); raw pack ${baseline.toFixed(0)}/s; ${(rate / baseline).toFixed(2)}x`);
}
